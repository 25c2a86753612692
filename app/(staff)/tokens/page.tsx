import type { Metadata } from "next";
import { revokeToken } from "@/app/(staff)/tokens/actions";
import { CardTable, type CardTableColumn } from "@/components/shared/card-table";
import { LocalTime } from "@/components/shared/local-time";
import { TokenCreateForm } from "@/components/api-tokens/token-create-form";
import { requireStaff } from "@/lib/auth/sessions/require-staff";
import { listTokensFor, type VisibleToken } from "@/lib/auth/api-tokens/token-access";

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
          <CardTable labelledBy="token-list-heading" rowHeader={LABEL} columns={tokenColumns(isOwner)} rows={tokens} rowKey={(token) => token.id} />
        )}
      </section>
    </>
  );
}

// A label may be long and unbroken (the CLI takes any length); so may an owner's email.
const LABEL: CardTableColumn<VisibleToken> = { header: "Label", cell: (token) => token.label, breakAnywhere: true };

function tokenColumns(isOwner: boolean): CardTableColumn<VisibleToken>[] {
  const owner: CardTableColumn<VisibleToken> = { header: "Owner", cell: (token) => token.ownerEmail ?? "CLI", breakAnywhere: true };
  return [
    { header: "Scopes", cell: (token) => token.scopes.join(" ") },
    ...(isOwner ? [owner] : []),
    { header: "Created", cell: (token) => <LocalTime date={token.createdAt} /> },
    { header: "Expires", cell: (token) => <LocalTime date={token.expiresAt} /> },
    { header: "Last used", cell: (token) => <LocalTime date={token.lastUsedAt} /> },
    { header: "Status", cell: (token) => <TokenStatus token={token} /> },
  ];
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
