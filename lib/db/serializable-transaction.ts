import { db, isWriteConflict, type Prisma } from "@/lib/db/client";

// A decision that must hold against concurrent writers (the first owner, the
// last active owner, a one-time link used once), made and written in one
// SERIALIZABLE transaction. SQLite runs one writer at a time. PostgreSQL fails
// one of two transactions that could not have run one after the other, and may
// fail it before the other has committed, so a lost race is run again rather
// than read as "someone else won": the second run sees the winner's writes.

const ATTEMPTS = 10;

export async function serializableTransaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(work, { isolationLevel: "Serializable" });
    } catch (error) {
      if (!isWriteConflict(error) || attempt === ATTEMPTS) throw error;
    }
  }
}
