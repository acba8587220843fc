"use client";

import { useActionState, useId } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { type AuthFormState, acceptInvite } from "../../actions";

const START: AuthFormState = { values: {}, fieldErrors: {}, error: null };

/**
 * Accept an invitation: a form posted to the server action `acceptInvite`, with JavaScript or without. The
 * invitee types their account's password, or chooses one for a new account.
 */
export function InvitationForm({
  token,
  email,
  hasAccount,
}: {
  token: string;
  email: string;
  hasAccount: boolean;
}) {
  const id = useId();
  const [state, action, pending] = useActionState(acceptInvite, START);
  return (
    <form className="mt-6 space-y-4" noValidate action={action}>
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="email" value={email} autoComplete="username" />
      <Field
        id={`${id}-password`}
        label={hasAccount ? "Your password" : "Choose a password (at least 10 characters)"}
        error={state.fieldErrors.password}
      >
        {(aria) => (
          <input
            {...aria}
            type="password"
            name="password"
            autoComplete={hasAccount ? "current-password" : "new-password"}
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
        {pending ? "Joining…" : "Join the team"}
      </button>
    </form>
  );
}
