"use client";

import Link from "next/link";
import { useActionState, useEffect, useId, useRef } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { SecretOnce, ShownOnceWarning } from "../../_components/secret-once";
import { linkClass } from "../../_components/styles";
import { type AuthFormState, signUp } from "../actions";

const START: AuthFormState = { values: {}, fieldErrors: {}, error: null };

/**
 * Sign up: a form posted to the server action `signUp` (../actions.ts), before and after the page's code
 * runs alike; then the two secret keys, shown this once.
 */
export function SignupForm() {
  const id = useId();
  const [state, action, pending] = useActionState(signUp, START);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (state.created) headingRef.current?.focus();
  }, [state.created]);

  if (state.created) {
    const { keys, businessName } = state.created;
    return (
      <section className="mt-6 space-y-4" aria-labelledby={`${id}-keys`}>
        <h2 id={`${id}-keys`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold">
          Your secret keys
        </h2>
        <p className="text-sm text-slate-700">
          Welcome, {businessName}. Your server sends one of these keys to the Paygate API.
        </p>
        <ShownOnceWarning>
          Copy both keys now and keep them somewhere safe. They will not be shown again: if one is lost, roll
          it on the API keys page for a new one.
        </ShownOnceWarning>
        <SecretOnce id="test-key" label="Test secret key" value={keys.test.secretKey} />
        <SecretOnce id="live-key" label="Live secret key" value={keys.live.secretKey} />
        <Link href="/dashboard" className={`${linkClass} inline-block pt-2`}>
          I have copied my keys: go to the console
        </Link>
      </section>
    );
  }

  const byField = state.fieldErrors;
  return (
    <form className="mt-6 space-y-4" noValidate action={action}>
      <Field id={`${id}-business`} label="Business name" error={byField.businessName}>
        {(aria) => (
          <input
            {...aria}
            name="businessName"
            autoComplete="organization"
            required
            defaultValue={state.values.businessName}
            className={inputClass}
          />
        )}
      </Field>
      <Field id={`${id}-email`} label="Email address" error={byField.email}>
        {(aria) => (
          <input
            {...aria}
            type="email"
            name="email"
            autoComplete="email"
            required
            defaultValue={state.values.email}
            className={inputClass}
          />
        )}
      </Field>
      <Field id={`${id}-password`} label="Password" hint="At least 10 characters." error={byField.password}>
        {(aria) => (
          <input
            {...aria}
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={10}
            className={inputClass}
          />
        )}
      </Field>
      {(state.error ?? byField.form) && (
        <p role="alert" className={alertError}>
          {state.error ?? byField.form}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={pending}>
        {pending ? "Creating your account…" : "Create account"}
      </button>
      <p className="text-sm text-slate-700">
        Already have an account?{" "}
        <Link href="/dashboard/login" className={linkClass}>
          Sign in
        </Link>
      </p>
    </form>
  );
}
