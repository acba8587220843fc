"use client";

import { useActionState, useId } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { type AuthFormState, setNewPassword } from "../../actions";

const START: AuthFormState = { values: {}, fieldErrors: {}, error: null };

/** The new password: posted to the server action, with JavaScript or without. */
export function ResetForm({ token, email }: { token: string; email: string }) {
  const id = useId();
  const [state, action, pending] = useActionState(setNewPassword, START);
  return (
    <form className="mt-6 space-y-4" noValidate action={action}>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="email" value={email} autoComplete="username" />
      <Field
        id={`${id}-password`}
        label="New password (at least 10 characters)"
        error={state.fieldErrors.password}
      >
        {(aria) => (
          <input
            {...aria}
            type="password"
            name="password"
            autoComplete="new-password"
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
        {pending ? "Saving…" : "Set the new password"}
      </button>
    </form>
  );
}
