// The failures of one SSH connection that the set of connections retries on another channel or connection.
import { TransportError } from "./transport-error.js";

/** Marks a failure that happened before the remote command could start: safe to retry. */
export class NotStarted extends TransportError {}

/** The server refused to open a channel (OpenSSH: MaxSessions reached) on a live connection: try again. */
export class ChannelRefused extends TransportError {}
