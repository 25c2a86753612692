import type { Metadata } from "next";
import { revokeToken } from "@/app/(staff)/tokens/actions";
import { TokenCreateForm } from "@/components/token-create-form";
import { UtcTime } from "@/components/utc-time";
import { requireStaff } from "@/lib/auth/require-staff";
import { listTokensFor, type VisibleToken } from "@/lib/auth/token-access";

export const metadata: Metadata = { title: "API tokens · Plant Store" };

export default async function TokensPage() {
  const user = await requireStaff("/tokens");
  const tokens = await listTokensFor(user);
  const isOwner = user.role === "owner";
  return (
    <>
      <h1>API tokens</h1>
      <p>
        Programs use a token with <code>Authorization: Bearer &lt;token&gt;</code> to call the <a href="/docs">API</a>.
      </p>
      <section>
        <h2 id="create-token-heading">Create a token</h2>
        <TokenCreateForm />
      </section>
      <section>
        <h2 id="token-list-heading">{isOwner ? "Everyone’s tokens" : "Your tokens"}</h2>
        {tokens.length === 0 ? (
          <p>No tokens yet.</p>
        ) : (
          <div className="table-scroll" role="region" aria-label="Token table" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">Label</th>
                  <th scope="col">Scopes</th>
                  {isOwner && <th scope="col">Owner</th>}
                  <th scope="col">Created</th>
                  <th scope="col">Expires</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {tokens.map((token) => (
                  <tr key={token.id}>
                    <td>{token.label}</td>
                    <td>{token.scopes.join(" ")}</td>
                    {isOwner && <td>{token.ownerEmail ?? "CLI"}</td>}
                    <td>
                      <UtcTime date={token.createdAt} />
                    </td>
                    <td>
                      <UtcTime date={token.expiresAt} />
                    </td>
                    <td>
                      <UtcTime date={token.lastUsedAt} />
                    </td>
                    <td>
                      <TokenStatus token={token} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function TokenStatus({ token }: { token: VisibleToken }) {
  if (token.status !== "active") return <>{token.status}</>;
  return (
    <form action={revokeToken} className="inline-form">
      active{" "}
      <input type="hidden" name="tokenId" value={token.id} />
      <button type="submit" className="danger" aria-label={`Revoke token ${token.label}`}>
        Revoke
      </button>
    </form>
  );
}
