import type { Metadata } from "next";
import type { ReactNode } from "react";
import { ConsoleProviders } from "./_components/providers";

export const metadata: Metadata = {
  title: { default: "Console", template: "%s · Paygate console" },
  robots: { index: false },
};

export default function DashboardLayout({ children }: { children: ReactNode }) {
  return <ConsoleProviders>{children}</ConsoleProviders>;
}
