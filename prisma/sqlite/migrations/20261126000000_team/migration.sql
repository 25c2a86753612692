-- AlterTable
ALTER TABLE "users" ADD COLUMN "sessions_valid_from" DATETIME;
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" DATETIME;
ALTER TABLE "users" ADD COLUMN "deactivated_at" DATETIME;

-- CreateTable
CREATE TABLE "account_links" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "purpose" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT,
    "user_id" TEXT,
    "created_by" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME NOT NULL,
    "used_at" DATETIME,
    "withdrawn_at" DATETIME,
    CONSTRAINT "account_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "account_links_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "account_links_token_hash_key" ON "account_links"("token_hash");

-- CreateIndex
CREATE INDEX "account_links_purpose_email_idx" ON "account_links"("purpose", "email");

-- CreateIndex
CREATE INDEX "account_links_user_id_idx" ON "account_links"("user_id");
