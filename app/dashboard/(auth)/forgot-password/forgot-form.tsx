"use client";

import { useActionState, useId } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { type AuthFormState, askPasswordReset } from "../actions";

const START: AuthFormState = { values: {}, fieldErrors: {}, error: null };

/** Ask for a reset link: posted to the server action, with JavaScript or without. */
export function ForgotForm() {
  const id = useId();
  const [state, action, pending] = useActionState(askPasswordReset, START);
  if (state.sent)
    return (
      <p role="status" className="mt-6 rounded-lg bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-200">
        If that email has a Paygate account, a link to choose a new password is on its way. It works once, for
        30 minutes.
      </p>
    );
  return (
    <form className="mt-6 space-y-4" noValidate action={action}>
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
      {state.error && (
        <p role="alert" className={alertError}>
          {state.error}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={pending}>
        {pending ? "Sending…" : "Email me a link"}
      </button>
    </form>
  );
}
