// The gateway serves the SDK beside the console as /console/client.js (services/api-gateway/console.ts).
export * from "../../client/src/index";
