"use client";

import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { consoleCall, fieldErrors } from "../../_components/api";

const FIELDS = ["email", "password"] as const;

export function LoginForm({ next }: { next: string }) {
  const id = useId();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useMutation({
    mutationFn: () => consoleCall("POST", "auth/login", { email, password }),
    // A full load, so every page after it is rendered for the signed-in merchant.
    onSuccess: () => window.location.assign(next),
  });
  const { byField, rest } = fieldErrors(login.error, FIELDS);
  return (
    <form
      className="mt-6 space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        login.mutate();
      }}
    >
      <Field id={`${id}-email`} label="Email address" error={byField.email}>
        {(aria) => (
          <input
            {...aria}
            type="email"
            name="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      <Field id={`${id}-password`} label="Password" error={byField.password}>
        {(aria) => (
          <input
            {...aria}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            className={inputClass}
          />
        )}
      </Field>
      {rest && (
        <p role="alert" className={alertError}>
          {rest}
        </p>
      )}
      <button type="submit" className={buttonPrimary} disabled={login.isPending || login.isSuccess}>
        {login.isPending || login.isSuccess ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
