// GET /dashboard/api/customers/{code} - one customer with its saved cards; PATCH - its name, phone, metadata.
import { customersEndpoints } from "@/lib/customers/endpoints";
import { consoleRoutes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(
  customersEndpoints.consoleGet,
  customersEndpoints.consoleUpdate,
);
