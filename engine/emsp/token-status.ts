// The eMSP token life cycle. PROVISIONED tokens are known only here; the other states have been
// pushed to CPO partners. INVALIDATED is final.
//
//   PROVISIONED --activate--> ACTIVE --block--> BLOCKED --unblock--> ACTIVE
//   PROVISIONED | ACTIVE | BLOCKED --expire--> EXPIRED
//   any state but INVALIDATED --invalidate--> INVALIDATED
export const TOKEN_STATUSES = ['PROVISIONED', 'ACTIVE', 'BLOCKED', 'EXPIRED', 'INVALIDATED'] as const;
export type TokenStatus = (typeof TOKEN_STATUSES)[number];

export const TOKEN_EVENTS = ['activate', 'block', 'unblock', 'expire', 'invalidate'] as const;
export type TokenEvent = (typeof TOKEN_EVENTS)[number];

interface Transition {
  from: readonly TokenStatus[];
  to: TokenStatus;
  /** Past participle, for the 400 detail: "only a PROVISIONED token can be activated". */
  done: string;
}

export const TOKEN_TRANSITIONS: Record<TokenEvent, Transition> = {
  activate: { from: ['PROVISIONED'], to: 'ACTIVE', done: 'activated' },
  block: { from: ['ACTIVE'], to: 'BLOCKED', done: 'blocked' },
  unblock: { from: ['BLOCKED'], to: 'ACTIVE', done: 'unblocked' },
  expire: { from: ['PROVISIONED', 'ACTIVE', 'BLOCKED'], to: 'EXPIRED', done: 'expired' },
  invalidate: {
    from: ['PROVISIONED', 'ACTIVE', 'BLOCKED', 'EXPIRED'],
    to: 'INVALIDATED',
    done: 'invalidated',
  },
};

export const canApply = (event: TokenEvent, status: TokenStatus): boolean =>
  TOKEN_TRANSITIONS[event].from.includes(status);

/** "Token 12 is ACTIVE; only a PROVISIONED token can be activated". */
export function notAllowedDetail(tokenId: number, status: TokenStatus, event: TokenEvent): string {
  const { from, done } = TOKEN_TRANSITIONS[event];
  const names = from.length === 1 ? from[0] : `${from.slice(0, -1).join(', ')} or ${from[from.length - 1]}`;
  const article = /^[AEIOU]/.test(names) ? 'an' : 'a';
  return `Token ${tokenId} is ${status}; only ${article} ${names} token can be ${done}`;
}

/**
 * Partners hold a token once it left PROVISIONED; only ACTIVE tokens are valid for them. A change
 * is pushed when partners know the token or are to accept it.
 */
export const partnersKnow = (status: TokenStatus): boolean => status !== 'PROVISIONED';
export const validAtPartners = (status: TokenStatus): boolean => status === 'ACTIVE';
