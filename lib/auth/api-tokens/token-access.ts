import type { Attribution } from "@/lib/activity/actor";
import { type ApiTokenInfo, createApiToken, findApiToken, listApiTokens, revokeApiToken, type TokenStatus, tokenStatus } from "@/lib/auth/api-tokens/api-tokens";
import type { Scope } from "@/lib/validations/api-token";
import { listUsers, type StaffUser } from "@/lib/auth/accounts/users";

// Which API tokens a staff member may see and revoke: their own; an owner,
// everyone's (including tokens an operator made with the CLI).

export type VisibleToken = ApiTokenInfo & { ownerEmail: string | null; status: TokenStatus };

export function mayManage(user: StaffUser, token: Pick<ApiTokenInfo, "ownerId">): boolean {
  return user.role === "owner" || token.ownerId === user.id;
}

export async function listTokensFor(user: StaffUser): Promise<VisibleToken[]> {
  const now = Date.now();
  if (user.role !== "owner") {
    return (await listApiTokens({ ownerId: user.id })).map((token) => ({ ...token, ownerEmail: user.email, status: tokenStatus(token, now) }));
  }
  const [tokens, users] = await Promise.all([listApiTokens(), listUsers()]);
  const emails = new Map(users.map((each) => [each.id, each.email]));
  return tokens.map((token) => ({
    ...token,
    ownerEmail: token.ownerId ? (emails.get(token.ownerId) ?? null) : null,
    status: tokenStatus(token, now),
  }));
}

export async function createTokenFor(user: StaffUser, input: { label: string; scopes: Scope[]; lifetimeSeconds: number }, by: Attribution) {
  return createApiToken({ ...input, ownerId: user.id }, by);
}

/** Revokes the token if `user` may; false when it does not exist or is not theirs to revoke (the two look alike). */
export async function revokeTokenFor(user: StaffUser, tokenId: string, by: Attribution): Promise<boolean> {
  const token = await findApiToken(tokenId);
  if (!token || !mayManage(user, token)) return false;
  return revokeApiToken(token.id, by);
}
