import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { authOptions } from "@/lib/auth/sessions/auth-options";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth's own endpoints: sign-in, sign-out, CSRF token, session.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  return NextAuth(request, context, authOptions());
}

export { handler as GET, handler as POST };
