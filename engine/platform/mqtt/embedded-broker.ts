// With no MQTT_URL, an in-process aedes broker listens on loopback and the engine connects to it
// with the same `mqtt` client it would use against Mosquitto. aedes speaks MQTT 3.1.1 only.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Aedes } from 'aedes';

export interface EmbeddedBroker {
  url: string;
  /** Stops listening and drops every client (the broker keeps its state). */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startEmbeddedBroker(): Promise<EmbeddedBroker> {
  const broker = await Aedes.createBroker();
  const sockets = new Set<Socket>();
  let port = 0;
  let server: Server | undefined = await listen();

  async function listen(): Promise<Server> {
    const s = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      broker.handle(socket);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.address() as AddressInfo).port;
    return s;
  }

  async function stop(): Promise<void> {
    if (!server) return;
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  return {
    url: `mqtt://127.0.0.1:${port}`,
    stop,
    async restart() {
      if (!server) server = await listen();
    },
    async close() {
      await stop();
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}
