// Bearer authentication: every route but health. The organization comes from the token only.
import type { Context, Next } from 'koa';
import { TokenError, type Principal, type TokenService } from '../../engine/platform/auth/tokens.ts';
import { ApiError } from './errors.ts';
import { storable } from './validation.ts';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer' };

export function requireAuth(tokens: TokenService) {
  return async function authenticate(ctx: Context, next: Next): Promise<void> {
    const header = ctx.get('authorization');
    if (!header) throw new ApiError(401, 'Not authenticated', CHALLENGE);
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw new ApiError(401, 'Authorization header must be: Bearer <token>', CHALLENGE);
    let principal: Principal;
    try {
      principal = await tokens.verify(match[1]);
    } catch (err) {
      if (err instanceof TokenError) throw new ApiError(401, `Invalid token: ${err.message}`, CHALLENGE);
      throw err;
    }
    // The organization scopes every query: one the database cannot store names nothing.
    if (!storable(principal.orgId))
      throw new ApiError(401, 'Invalid token: org_id holds characters that cannot be stored', CHALLENGE);
    ctx.state.principal = principal;
    await next();
  };
}

export function orgOf(ctx: Context): string {
  return (ctx.state.principal as Principal).orgId;
}
