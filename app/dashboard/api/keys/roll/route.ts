// POST /dashboard/api/keys/roll {mode} - a new secret key for the mode; the old one stops working at once.
import { consoleRoutes } from "@/lib/http/routes";
import { merchantsEndpoints } from "@/lib/merchants/endpoints";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(merchantsEndpoints.rollKey);
