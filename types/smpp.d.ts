/** The parts of the smpp package (SMPP 3.4/5.0 client and server) the platform uses. */
declare module "smpp" {
	import type { EventEmitter } from "node:events";
	import type { Server as NetServer } from "node:net";

	/** A decoded short_message or message_payload. */
	interface DecodedMessage {
		udh?: Buffer[];
		message: string | Buffer;
	}

	/** Parameters and TLVs by their SMPP names; values as the package encodes and decodes them. */
	type PduOptions = Record<string, unknown>;

	class PDU {
		constructor(command: string, options?: PduOptions);
		command: string;
		command_status: number;
		sequence_number: number;
		isResponse(): boolean;
		response(options?: PduOptions): PDU;
		[param: string]: unknown;
	}

	type ResponseCallback = (pdu: PDU) => void;

	class Session extends EventEmitter {
		send(pdu: PDU, responseCallback?: ResponseCallback, sendCallback?: ResponseCallback): boolean;
		close(callback?: () => void): void;
		destroy(callback?: () => void): void;
		pause(): void;
		resume(): void;
		bind_transceiver(options: PduOptions, callback?: ResponseCallback): boolean;
		submit_sm(options: PduOptions, callback?: ResponseCallback): boolean;
		deliver_sm(options: PduOptions, callback?: ResponseCallback): boolean;
		enquire_link(options?: PduOptions, callback?: ResponseCallback): boolean;
		unbind(options?: PduOptions, callback?: ResponseCallback): boolean;
		readonly socket: import("node:net").Socket;
	}

	class Server extends NetServer {
		readonly sessions: Session[];
	}

	interface ConnectOptions {
		url?: string;
		host?: string;
		port?: number;
		tls?: boolean;
		auto_enquire_link_period?: number;
		[option: string]: unknown;
	}

	function connect(options: ConnectOptions, listener?: () => void): Session;
	function createServer(listener?: (session: Session) => void): Server;
	function createServer(options: { key?: string; cert?: string }, listener?: (session: Session) => void): Server;

	const errors: Record<string, number>;
	const ESME_ROK: number;
	const ESME_RINVDSTADR: number;
	const ESME_RTHROTTLED: number;
	const ESME_RBINDFAIL: number;
	const ESME_RINVPASWD: number;
	const ESM_CLASS: Record<string, number>;
	const REGISTERED_DELIVERY: Record<string, number>;
	const MESSAGE_STATE: Record<string, number>;
	const ENCODING: Record<string, number>;
	const TON: Record<string, number>;
	const NPI: Record<string, number>;
}
