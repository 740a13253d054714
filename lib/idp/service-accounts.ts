/**
 * Service accounts for the team's own backends (POST /auth/services/token), the same
 * rules for both identity providers. A service id names what the account's tokens
 * carry in `custom:service_id`; the ids of the platform's own services are reserved,
 * because actions grant rights to them by name (actors.register admits only "auth").
 */
import { ALL_SERVICES } from "../config";
import { ClientError, badRequest } from "../errors";

export const SERVICE_ID = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const serviceExists = () => new ClientError(409, "SERVICE_EXISTS", "A service account with this serviceId exists.");

/** 409 for the platform's own service ids: they exist, as the platform's. */
export function checkServiceId(serviceId: string): void {
	if (!SERVICE_ID.test(serviceId)) throw badRequest("The serviceId must match [a-z0-9][a-z0-9-]{0,62}.", [{ field: "serviceId", message: "must match [a-z0-9][a-z0-9-]{0,62}" }]);
	if ((ALL_SERVICES as readonly string[]).includes(serviceId)) throw serviceExists();
}

export function serviceAccountUsername(serviceId: string): string {
	return `svc-${serviceId}`;
}
