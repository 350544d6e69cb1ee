// The built-in central system accepts every token, but for those whose name says they are not:
// a token beginning INVALID, BLOCKED or EXPIRED is answered with that status, so the negative
// cases of a conformance suite (an unknown, blocked or expired token) have a central system that
// refuses them, with no token list to keep.
export type IdTagStatus = 'Accepted' | 'Invalid' | 'Blocked' | 'Expired';

const REFUSED: Array<[string, IdTagStatus]> = [
  ['INVALID', 'Invalid'],
  ['BLOCKED', 'Blocked'],
  ['EXPIRED', 'Expired'],
];

export function idTagStatus(idTag: string | undefined): IdTagStatus {
  if (idTag === undefined) return 'Accepted';
  return REFUSED.find(([prefix]) => idTag.startsWith(prefix))?.[1] ?? 'Accepted';
}
