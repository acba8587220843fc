import { z } from "zod";

export const HealthResponse = z.object({ database: z.literal("reachable"), databaseMs: z.number() });

export const PingResponse = z.object({ ok: z.literal(true) });
