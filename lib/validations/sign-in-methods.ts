import { z } from "zod";
import { SIGN_IN_METHODS, type SignInMethodsChange } from "@/lib/validations/sign-in-methods-options";

// The sign-in methods' schema (issue 34), shared by the Team page's form and its server action; no server import here.

export const signInMethodsSchema = z.enum(SIGN_IN_METHODS, { error: "Choose how staff sign in" });

export const changeSignInMethodsSchema: z.ZodType<SignInMethodsChange, SignInMethodsChange> = z.object({ methods: signInMethodsSchema });
