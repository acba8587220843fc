"use client";

import { useActionState, useId } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { type AuthFormState, signIn, signInCode } from "../actions";

const START: AuthFormState = { values: {}, fieldErrors: {}, error: null };

/**
 * Sign in: a form posted to the server action `signIn` (../actions.ts), before and after the page's code
 * runs alike. The fields are the browser's own (uncontrolled), so what was typed before the code ran stays.
 */
export function LoginForm({ next }: { next: string }) {
  const id = useId();
  const [state, action, pending] = useActionState(signIn, START);
  if (state.challenge) return <CodeForm challenge={state.challenge} next={next} />;
  return (
    <form className="mt-6 space-y-4" noValidate action={action}>
      <input type="hidden" name="next" value={next} />
      <Field id={`${id}-email`} label="Email address" error={state.fieldErrors.email}>
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
      <Field id={`${id}-password`} label="Password" error={state.fieldErrors.password}>
        {(aria) => (
          <input
            {...aria}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            className={inputClass}
          />
        )}
      </Field>
      {state.error && (
        <p role="alert" className={alertError}>
          {state.error}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

/** The code of the authenticator app (or a recovery code), after a right password. */
function CodeForm({ challenge, next }: { challenge: string; next: string }) {
  const id = useId();
  const [state, action, pending] = useActionState(signInCode, { ...START, challenge });
  return (
    <form className="mt-6 space-y-4" noValidate action={action}>
      <input type="hidden" name="next" value={next} />
      <input type="hidden" name="challenge" value={state.challenge ?? ""} />
      <Field
        id={`${id}-code`}
        label="Two-factor code"
        hint="The 6 digits your authenticator app shows, or one of your recovery codes."
        error={null}
      >
        {(aria) => (
          <input
            {...aria}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            required
            className={inputClass}
          />
        )}
      </Field>
      {state.error && (
        <p role="alert" className={alertError}>
          {state.error}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={pending || !state.challenge}>
        {pending ? "Checking…" : "Sign in"}
      </button>
    </form>
  );
}
