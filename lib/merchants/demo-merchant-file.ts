import { resolve } from "node:path";
import { env } from "@/lib/env";

/** Where the demo merchant's credentials are written for the developer (DEMO_MERCHANT_FILE, made absolute). */
export const demoMerchantFile = () => resolve(env().DEMO_MERCHANT_FILE);
