// GET /v1/merchants/audit-log?actor=&action=&limit=&cursor= - who changed what (session token).
import { auditEndpoints } from "@/lib/audit/endpoints";
import { routes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routes(auditEndpoints.list);
