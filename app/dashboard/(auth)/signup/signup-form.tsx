"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useId, useRef, useState } from "react";
import { Field } from "@/components/ui/field";
import { alertError, buttonPrimary, inputClass } from "@/components/ui/styles";
import { consoleCall, fieldErrors } from "../../_components/api";
import { SecretOnce, ShownOnceWarning } from "../../_components/secret-once";
import { linkClass } from "../../_components/styles";

type Signup = {
  merchant: { id: string; businessName: string; email: string };
  keys: { test: { secretKey: string }; live: { secretKey: string } };
};

const FIELDS = ["businessName", "email", "password"] as const;

export function SignupForm() {
  const id = useId();
  const [businessName, setBusinessName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const headingRef = useRef<HTMLHeadingElement>(null);
  const signup = useMutation({
    mutationFn: () => consoleCall<Signup>("POST", "auth/signup", { businessName, email, password }),
  });
  useEffect(() => {
    if (signup.data) headingRef.current?.focus();
  }, [signup.data]);

  if (signup.data) {
    const { keys, merchant } = signup.data;
    return (
      <section className="mt-6 space-y-4" aria-labelledby={`${id}-keys`}>
        <h2 id={`${id}-keys`} ref={headingRef} tabIndex={-1} className="text-lg font-semibold">
          Your secret keys
        </h2>
        <p className="text-sm text-slate-700">
          Welcome, {merchant.businessName}. Your server sends one of these keys to the Paygate API.
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

  const { byField, rest } = fieldErrors(signup.error, FIELDS);
  return (
    <form
      className="mt-6 space-y-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        signup.mutate();
      }}
    >
      <Field id={`${id}-business`} label="Business name" error={byField.businessName}>
        {(aria) => (
          <input
            {...aria}
            name="businessName"
            autoComplete="organization"
            required
            value={businessName}
            onChange={(e) => setBusinessName(e.target.value)}
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
            value={email}
            onChange={(e) => setEmail(e.target.value)}
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
      <button type="submit" className={buttonPrimary} disabled={signup.isPending}>
        {signup.isPending ? "Creating your account…" : "Create account"}
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
