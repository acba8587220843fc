"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { deviceCookieOptions, SESSION_COOKIE, safeNext, sessionCookieOptions } from "@/lib/console/cookies";
import { formValues, parseFields } from "@/lib/console/form-fields";
import { isAppError } from "@/lib/core/errors";
import { clientAddressOf } from "@/lib/http/client-address";
import { loginMerchant, loginTwoFactor } from "@/lib/merchants/login-merchant";
import { confirmPasswordReset, requestPasswordReset } from "@/lib/merchants/password-reset";
import { LoginBody, PasswordResetBody, SignupBody } from "@/lib/merchants/schemas";
import { signupMerchant } from "@/lib/merchants/signup-merchant";
import { DEVICE_COOKIE, type DeviceCookie } from "@/lib/security/known-device";
import { acceptInvitation } from "@/lib/team/accept-invitation";

/**
 * The console's sign-in and sign-up forms, as server actions: the same verbs, rules and budgets as
 * /v1/merchants/auth/*. The browser posts them itself before the page's code runs or with JavaScript off, and
 * the page's code posts them the same way once it runs (useActionState), so there is one path, always a POST:
 * no credential ever travels in an address. A failure answers the form again with each field's problem and
 * what was typed (never the password).
 */
export type AuthFormState = {
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  error: string | null;
  /** A right password with two-factor sign-in on: the challenge the code answers. */
  challenge?: string;
  /** After asking for a password reset: the answer is the same for every email. */
  sent?: boolean;
  /** After sign-up: the two secret keys, shown this once. */
  created?: {
    businessName: string;
    keys: { test: { secretKey: string }; live: { secretKey: string } };
  };
};

async function requestFacts() {
  const h = await headers();
  return { clientAddress: clientAddressOf(h), https: h.get("x-forwarded-proto") === "https" };
}

async function startSession(
  session: { accessToken: string; expiresAt: string; device: DeviceCookie },
  https: boolean,
) {
  const jar = await cookies();
  jar.set(SESSION_COOKIE, session.accessToken, sessionCookieOptions(session.expiresAt, https));
  // This browser is now known to the account (lib/security/known-device.ts).
  jar.set(DEVICE_COOKIE, session.device.value, deviceCookieOptions(session.device.maxAgeSeconds, https));
}

function failure(values: Record<string, string>, err: unknown): AuthFormState {
  if (!isAppError(err)) throw err;
  return { values, fieldErrors: {}, error: err.message };
}

export async function signIn(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = formValues(form, ["email", "password"]);
  const kept = { email: values.email ?? "" };
  const parsed = parseFields(LoginBody, values);
  if (!parsed.ok) return { values: kept, fieldErrors: parsed.fieldErrors, error: null };
  const { clientAddress, https } = await requestFacts();
  let session: Awaited<ReturnType<typeof loginMerchant>>;
  try {
    const deviceCookie = (await cookies()).get(DEVICE_COOKIE)?.value ?? null;
    session = await loginMerchant({ ...parsed.data, clientAddress, deviceCookie });
  } catch (err) {
    return failure(kept, err);
  }
  if ("challenge" in session)
    return { values: kept, fieldErrors: {}, error: null, challenge: session.challenge };
  await startSession(session, https);
  const next = form.get("next");
  redirect(safeNext(typeof next === "string" ? next : null));
}

/** The second step of a sign-in with two-factor sign-in on: the code of the app, or a recovery code. */
export async function signInCode(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const challenge = String(form.get("challenge") ?? "");
  const code = String(form.get("code") ?? "").replace(/\s/g, "");
  const { https } = await requestFacts();
  let session: Awaited<ReturnType<typeof loginTwoFactor>>;
  try {
    session = await loginTwoFactor(
      /^\d{6}$/.test(code) ? { challenge, code } : { challenge, recoveryCode: code.slice(0, 40) },
    );
  } catch (err) {
    if (isAppError(err) && err.code === "invalid_token") return failure({}, err);
    return { ...failure({}, err), challenge };
  }
  await startSession(session, https);
  const next = form.get("next");
  redirect(safeNext(typeof next === "string" ? next : null));
}

export async function signUp(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = formValues(form, ["businessName", "email", "password"]);
  const kept = { businessName: values.businessName ?? "", email: values.email ?? "" };
  const parsed = parseFields(SignupBody, values);
  if (!parsed.ok) return { values: kept, fieldErrors: parsed.fieldErrors, error: null };
  const { clientAddress, https } = await requestFacts();
  try {
    const { merchant, keys, ...session } = await signupMerchant({
      ...parsed.data,
      clientAddress,
    });
    await startSession(session, https);
    return {
      values: {},
      fieldErrors: {},
      error: null,
      created: { businessName: merchant.businessName, keys },
    };
  } catch (err) {
    return failure(kept, err);
  }
}

/** Join a team from an invitation's page (/dashboard/invitations/{token}): the same verb as the API's accept. */
export async function acceptInvite(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  if (!password) return { values: {}, fieldErrors: { password: "Enter a password." }, error: null };
  const { clientAddress, https } = await requestFacts();
  let session: Awaited<ReturnType<typeof acceptInvitation>>;
  try {
    session = await acceptInvitation({ token, password, clientAddress });
  } catch (err) {
    if (isAppError(err) && err.code === "validation_error")
      return { values: {}, fieldErrors: { password: err.fields[0]?.message ?? err.message }, error: null };
    return failure({}, err);
  }
  await startSession(session, https);
  redirect("/dashboard");
}

/** Ask for a password-reset link: the same answer for any email (lib/merchants/password-reset.ts). */
export async function askPasswordReset(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const values = formValues(form, ["email"]);
  const parsed = parseFields(PasswordResetBody, values);
  if (!parsed.ok) return { values, fieldErrors: parsed.fieldErrors, error: null };
  const { clientAddress } = await requestFacts();
  try {
    await requestPasswordReset({ email: parsed.data.email, clientAddress });
  } catch (err) {
    return failure(values, err);
  }
  return { values: {}, fieldErrors: {}, error: null, sent: true };
}

/** Set a new password from a reset link's page; every session of the account ends, then sign in. */
export async function setNewPassword(_: AuthFormState, form: FormData): Promise<AuthFormState> {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  const { clientAddress } = await requestFacts();
  try {
    await confirmPasswordReset({ token, password, clientAddress });
  } catch (err) {
    if (isAppError(err) && err.code === "validation_error")
      return { values: {}, fieldErrors: { password: err.fields[0]?.message ?? err.message }, error: null };
    return failure({}, err);
  }
  redirect("/dashboard/login?reset=1");
}
