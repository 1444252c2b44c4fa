/**
 * Large bodies, one at a time. A body over LARGE_BODY_BYTES costs several times its size from
 * the bytes that make it large to its parsed value (the bytes read, the text, the parsed value,
 * and the garbage of each step), so a server that pads every answer to the 8 MiB cap would
 * otherwise multiply that by every request in flight. Each exchange takes a pass the moment its
 * body grows past LARGE_BODY_BYTES (transport.ts stops reading it until then: the rest of the
 * body waits in the socket) or, for a body read whole, before it is decoded and parsed; it keeps
 * the pass until its answer is made. At most LARGE_BODIES_AT_ONCE passes are held per client, so
 * the memory large bodies take is bounded by that many bodies at the cap, whatever the server
 * sends and however many requests are in flight; small bodies never wait. Each pass granted is a
 * chance for the memory valve to collect what the previous large bodies left (memory-valve.ts).
 */
import { collectGarbageIfLarge, oweLargeBody } from './memory-valve.ts';

/** Bodies larger than this, or sent with a Content-Encoding (they may decode up to the cap), hold a pass. */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** Large bodies a client holds at once, from the bytes that make one large to its answer. */
export const LARGE_BODIES_AT_ONCE = 1;

/** The passes of one client: at most `atOnce` held, granted in the order they were asked for. */
export class LargeBodies {
  private held = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly atOnce = LARGE_BODIES_AT_ONCE) {}

  /** One exchange's claim on a pass, taken only if its body turns out large. */
  claim(): BodyPass {
    return new BodyPass(this);
  }

  /** Resolves once a pass is free, and holds it. */
  async take(): Promise<void> {
    if (this.held < this.atOnce) {
      this.held += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Frees a pass, handing it straight to the first in line. */
  give(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held -= 1;
  }
}

/** One exchange's claim: entered at most once (when its body grows large), left once (when its answer is made or it failed). */
export class BodyPass {
  /** transport.ts enters the pass once a body grows past this many bytes. */
  readonly afterBytes = LARGE_BODY_BYTES;
  private entry: Promise<void> | undefined;
  private left = false;

  constructor(private readonly passes: LargeBodies) {}

  /** Waits for a pass and holds it; a second call waits for the same one. */
  enter(): Promise<void> {
    this.entry ??= this.passes.take().then(collectGarbageIfLarge);
    return this.entry;
  }

  /** Gives the pass back, if one was entered, counting the body's bytes as garbage to collect; later calls do nothing. */
  leave(bytes: number): void {
    if (this.left || this.entry === undefined) return;
    this.left = true;
    // Entered means granted or waiting: a pass still waited for is given back the moment it is granted.
    void this.entry.then(() => {
      oweLargeBody(bytes);
      this.passes.give();
    });
  }
}
