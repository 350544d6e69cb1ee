// Runs the parsers of several request parts (path, query, header, body) and reports their
// issues in one 422, so a caller sees every failed rule at once. (A candidate for api/validation.ts.)
import { ValidationError, type ValidationIssue } from '../errors.ts';

export function validateAll<T extends unknown[]>(...parsers: { [K in keyof T]: () => T[K] }): T {
  const issues: ValidationIssue[] = [];
  const out = parsers.map((parse) => {
    try {
      return parse();
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues.push(...err.issues);
      return undefined;
    }
  });
  if (issues.length > 0) throw new ValidationError(issues);
  return out as T;
}
