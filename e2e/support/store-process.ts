// The lane's store helper (e2e/support/store.ts starts it): one Node process per Playwright worker that makes
// what the specs need to start from (accounts, API tokens, one-time links) with the same lib/ functions the
// operator CLIs call, attributed to the CLI as theirs are, against the lane's database. One process for
// them all, not a CLI process each: a spec not about the CLI pays for its start (Node, Prisma, the password
// checker's dictionaries) once per lane, rather than at every account (issue 31). The CLIs themselves are
// tested in cli/.
//
// Run through tsx (the Prisma client is ES modules, which Playwright's workers cannot load); requests and
// answers are JSON lines on stdin and stdout.
import { createInterface } from "node:readline";
import { cliAttribution } from "@/lib/activity/cli-attribution";
import { createApiToken } from "@/lib/auth/api-tokens/api-tokens";
import { createInvitation, createPasswordReset } from "@/lib/auth/accounts/account-links";
import { accountLinkUrl } from "@/lib/auth/accounts/account-link-url";
import { createUser, findUserIdByEmail } from "@/lib/auth/accounts/users";
import { disconnectDatabase } from "@/lib/db/client";
import { isScope } from "@/lib/validations/api-token";
import { newInvitationSchema, newUserSchema } from "@/lib/validations/user";
import { newWebhookEndpointSchema } from "@/lib/validations/webhook";
import { createWebhookEndpoint, deleteWebhookEndpoint } from "@/lib/webhooks/endpoints";
import type { StoreRequest } from "./store";

async function answer(request: StoreRequest): Promise<string> {
  switch (request.op) {
    case "user": {
      const user = await createUser(newUserSchema.parse(request.user), cliAttribution());
      return user.id;
    }
    case "token": {
      const scopes = request.scopes.filter(isScope);
      if (scopes.length !== request.scopes.length) throw new Error(`unknown scope in ${request.scopes.join(" ")}`);
      return (await createApiToken({ label: request.label, scopes, lifetimeSeconds: request.lifetimeSeconds }, cliAttribution())).token;
    }
    case "invitation": {
      const { secret } = await createInvitation(newInvitationSchema.parse({ email: request.email, role: request.role }), cliAttribution());
      return new URL(accountLinkUrl("invitation", secret)).pathname;
    }
    case "webhook": {
      const { endpoint } = await createWebhookEndpoint(newWebhookEndpointSchema.parse(request.endpoint), cliAttribution());
      return endpoint.id;
    }
    case "delete webhook": {
      if (!(await deleteWebhookEndpoint(request.id, cliAttribution()))) throw new Error(`no webhook endpoint ${request.id}`);
      return request.id;
    }
    case "password reset": {
      const userId = await findUserIdByEmail(request.email);
      if (!userId) throw new Error(`no account ${request.email}`);
      const { secret } = await createPasswordReset({ userId }, cliAttribution());
      return new URL(accountLinkUrl("password_reset", secret)).pathname;
    }
  }
}

const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const { id, request } = JSON.parse(line) as { id: number; request: StoreRequest };
  answer(request).then(
    (value) => process.stdout.write(`${JSON.stringify({ id, value })}\n`),
    (error: unknown) => process.stdout.write(`${JSON.stringify({ id, error: error instanceof Error ? error.message : String(error) })}\n`),
  );
});
lines.on("close", () => void disconnectDatabase().finally(() => process.exit(0)));
