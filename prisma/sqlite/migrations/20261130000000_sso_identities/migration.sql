-- Single sign-on (issue 34): each account's identity at the store's OpenID
-- Connect provider, found by issuer and subject (the ID token's sub), so a
-- later change of email at the provider still finds the account.
CREATE TABLE "sso_identities" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "linked_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_identities_issuer_subject_key" ON "sso_identities"("issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "sso_identities_user_id_issuer_key" ON "sso_identities"("user_id", "issuer");
