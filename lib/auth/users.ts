import { randomUUID } from "node:crypto";
import { db, isWriteConflict, Prisma, type User } from "@/lib/db/client";
import { hashPassword, spendVerifyTime, verifyPassword } from "@/lib/auth/passwords";
import { type NewUser, type Role, ROLES } from "@/lib/validations/user";

// Staff accounts; returns plain objects without the password hash.

export type StaffUser = Pick<User, "id" | "email" | "name"> & { role: Role };

function toStaffUser(row: User): StaffUser {
  // The column is free text; anything unknown gets the lesser role.
  const role = (ROLES as readonly string[]).includes(row.role) ? (row.role as Role) : "staff";
  return { id: row.id, email: row.email, name: row.name, role };
}

export class EmailTakenError extends Error {
  override name = "EmailTakenError";
}

export async function hasAnyUser(): Promise<boolean> {
  return (await db().user.findFirst({ select: { id: true } })) !== null;
}

export async function findUser(id: string): Promise<StaffUser | null> {
  const row = await db().user.findUnique({ where: { id } });
  return row && toStaffUser(row);
}

export async function listUsers(): Promise<StaffUser[]> {
  return (await db().user.findMany({ orderBy: { createdAt: "asc" } })).map(toStaffUser);
}

export async function createUser(input: NewUser): Promise<StaffUser> {
  const data = { id: randomUUID(), email: input.email, name: input.name, role: input.role, passwordHash: await hashPassword(input.password) };
  try {
    return toStaffUser(await db().user.create({ data }));
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new EmailTakenError(`an account with email ${input.email} already exists`);
    }
    throw error;
  }
}

// A lost serialization race is retried, not read as "someone else won": PostgreSQL
// may fail a transaction before the one it conflicts with has committed.
const FIRST_OWNER_ATTEMPTS = 10;

/**
 * Creates the first account, an owner, only while no account exists. The
 * check and the insert are one statement in a SERIALIZABLE transaction, so of
 * two setups racing (two tabs, two app instances) exactly one wins: SQLite
 * runs one writer at a time, and PostgreSQL fails a loser rather than let two
 * see an empty table; the loser tries again and then sees the winner's row.
 * null means another account got there first.
 */
export async function createFirstOwner(input: Omit<NewUser, "role">): Promise<StaffUser | null> {
  const user: StaffUser = { id: randomUUID(), email: input.email, name: input.name, role: "owner" };
  const passwordHash = await hashPassword(input.password);
  for (let attempt = 1; ; attempt++) {
    try {
      const inserted = await db().$transaction(
        (tx) => tx.$executeRaw`
          INSERT INTO "users" ("id", "email", "name", "role", "password_hash", "created_at")
          SELECT ${user.id}, ${user.email}, ${user.name}, ${user.role}, ${passwordHash}, ${new Date()}
          WHERE NOT EXISTS (SELECT 1 FROM "users")`,
        { isolationLevel: "Serializable" },
      );
      return inserted === 1 ? user : null;
    } catch (error) {
      if (!isWriteConflict(error) || attempt === FIRST_OWNER_ATTEMPTS) throw error;
    }
  }
}

/** The account these credentials open, or null; takes the same time whether or not the email exists. */
export async function authenticate(email: string, password: string): Promise<StaffUser | null> {
  const row = await db().user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!row) {
    await spendVerifyTime(password);
    return null;
  }
  return (await verifyPassword(row.passwordHash, password)) ? toStaffUser(row) : null;
}
