-- AlterTable
ALTER TABLE "users" ADD COLUMN "sessions_valid_from" TIMESTAMP(3),
ADD COLUMN "last_sign_in_at" TIMESTAMP(3),
ADD COLUMN "deactivated_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "account_links" (
    "id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT,
    "user_id" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "withdrawn_at" TIMESTAMP(3),

    CONSTRAINT "account_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "account_links_token_hash_key" ON "account_links"("token_hash");

-- CreateIndex
CREATE INDEX "account_links_purpose_email_idx" ON "account_links"("purpose", "email");

-- CreateIndex
CREATE INDEX "account_links_user_id_idx" ON "account_links"("user_id");

-- AddForeignKey
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_links" ADD CONSTRAINT "account_links_created_by_fkey" FOREIGN KEY ("created_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
