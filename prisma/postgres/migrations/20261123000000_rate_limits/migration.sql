-- CreateTable
-- UNLOGGED, by hand (Prisma does not model it): a counter is not worth a WAL
-- write per request, and a crash that empties the table only resets limits.
CREATE UNLOGGED TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);
