import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { originFromHeaders } from "@/lib/activity/action-attribution";
import { authOptionsFor } from "@/lib/auth/sessions/auth-options";
import { callbackPathOf } from "@/lib/auth/sessions/callback-url";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth's own endpoints: sign-in, sign-out, CSRF token, session, and the
// single sign-on's callback, which records the sign-in from this request.
async function handler(request: NextRequest, context: Context): Promise<Response> {
  const origin = originFromHeaders((name) => request.headers.get(name), null);
  return NextAuth(request, context, authOptionsFor(origin, callbackPathOf(request.cookies)));
}

export { handler as GET, handler as POST };
