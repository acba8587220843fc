// POST /dashboard/api/authorizations/{code}/deactivate - stop one of a customer's saved cards for good.
import { customersEndpoints } from "@/lib/customers/endpoints";
import { consoleRoutes } from "@/lib/http/routes";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = consoleRoutes(customersEndpoints.consoleDeactivate);
