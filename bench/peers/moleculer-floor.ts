/**
 * The framework's own floor: moleculer-web in front of one action that returns a
 * constant, a Map lookup for authentication, logger, metrics and tracing off. No
 * project code at all, so the project's GET /actors/{id} against this says what the
 * project adds on top of the framework it stands on.
 */
import { ServiceBroker, type ServiceSchema } from "moleculer";
import ApiGateway from "moleculer-web";
import type { IncomingMessage } from "node:http";
import { readFloorEnv } from "./common";

const settings = readFloorEnv(process.env);
const users = new Map([[settings.token, { sub: "floor-user" }]]);
const body: unknown = JSON.parse(settings.body);

const broker = new ServiceBroker({ nodeID: "floor", logger: false, metrics: false, tracing: false, transporter: null });

broker.createService({
	name: "floor",
	actions: {
		get: {
			visibility: "published",
			handler: () => body
		}
	}
});

broker.createService({
	name: "api",
	mixins: [ApiGateway as unknown as Partial<ServiceSchema>],
	settings: {
		port: settings.port,
		ip: settings.host,
		logRequest: null,
		logResponse: null,
		routes: [{ path: "/", mappingPolicy: "restrict", authentication: true, bodyParsers: false, aliases: { "GET actors/:id": "floor.get" } }]
	},
	methods: {
		authenticate(_ctx: unknown, _route: unknown, req: IncomingMessage) {
			const header = req.headers.authorization;
			const user = header?.startsWith("Bearer ") ? users.get(header.slice(7)) : undefined;
			if (!user) throw new ApiGateway.Errors.UnAuthorizedError(ApiGateway.Errors.ERR_INVALID_TOKEN, null);
			return user;
		}
	}
});

process.once("SIGTERM", () => void broker.stop().then(() => process.exit(0)));
broker.start().catch(err => {
	process.stderr.write(`${(err as Error).stack ?? err}\n`);
	process.exit(1);
});
