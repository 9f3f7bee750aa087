// frames.js: turns the server's "state" frames into whole states
// (docs/protocol.md, "Frames as deltas"). After the first frame of a
// join/watch, which has the whole view, each frame carries the view as a
// JSON Patch (RFC 6902) from the one before ("patch": {"base", "ops"}), and
// leaves out "seats", "timer" and "practice" when they did not change. This
// module keeps what the last frame left, applies the patch, fills the members
// left out, and puts the board and card table ("static", sent once) back
// into the view. A frame that does not follow (a gap in "seq", a patch whose
// base is not the view held) asks the server for a resync, whose answer has
// the whole view again. With the check on (localStorage "chartered.deltaCheck"
// = "1", which the browser tests set) it also asks for a resync at random
// points and compares the whole view with the patched one: each check is
// counted in document.body.dataset.deltaChecked, a difference in
// deltaMismatch and thrown as an uncaught error (a page error for the tests).

const B_MEMBERS = ['seats', 'timer', 'practice'];

function tokens(path) {
  if (path === '') return [];
  return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

// doc with the operations applied; doc itself is left as it was (each
// container on an operation's path is copied once).
export function applyPatch(doc, ops) {
  const root = [doc];
  const copied = new Set();
  for (const op of ops) {
    let parent = root, key = 0;
    for (let t of tokens(op.path)) {
      let node = parent[key];
      if (!copied.has(node)) {
        node = Array.isArray(node) ? node.slice() : Object.assign({}, node);
        parent[key] = node;
        copied.add(node);
      }
      if (Array.isArray(node)) t = t === '-' ? node.length : Number(t);
      parent = node; key = t;
    }
    if (op.op === 'replace') parent[key] = op.value;
    else if (op.op === 'add') {
      if (Array.isArray(parent) && parent !== root) parent.splice(key, 0, op.value);
      else parent[key] = op.value;
    } else if (op.op === 'remove') {
      if (Array.isArray(parent)) parent.splice(key, 1); else delete parent[key];
    } else throw new Error(`unexpected patch operation ${op.op}`);
  }
  return root[0];
}

function equal(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

export class FrameState {
  // send: sends a client frame (an object) to the server
  constructor(send) {
    this.send = send;
    this.reset();
    let on = false;
    try { on = localStorage.getItem('chartered.deltaCheck') === '1'; } catch (e) { /* no storage */ }
    this.checkOn = on;
    this.rng = 18;              // the checks' points: a fixed seed (xorshift)
  }

  random() {
    let x = this.rng;
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    this.rng = x;
    return x / 4294967296;
  }

  // a new connection or a new join/watch: the next frame has the whole view
  reset() {
    this.view = null;           // the view without the board and card table
    this.decision = null;
    this.seq = null;
    this.staticPart = null;
    this.b = {};
    this.waiting = false;       // a resync was asked for: ignore patches until it comes
    this.check = null;
  }

  resync() {
    this.waiting = true;
    this.send({ type: 'resync' });
  }

  // The whole frame, or null when it cannot be used (a resync is on its way).
  receive(frame) {
    if (frame.seq === 1) { this.view = null; this.b = {}; this.check = null; this.waiting = false; }
    const gap = typeof frame.seq === 'number' && this.seq !== null && frame.seq !== 1 && frame.seq !== this.seq + 1;
    if (typeof frame.seq === 'number') this.seq = frame.seq;
    if (frame.static) this.staticPart = frame.static;
    if ('seats' in frame) {
      this.b = {};
      for (const k of B_MEMBERS) if (k in frame) this.b[k] = frame[k];
    } else {
      for (const k of Object.keys(this.b)) if (!(k in frame)) frame[k] = this.b[k];
    }
    if (frame.patch) {
      const p = frame.patch;
      delete frame.patch;
      if (this.waiting) return null;
      if (gap || this.view === null || p.base !== this.decision) { this.resync(); return null; }
      try { this.view = applyPatch(this.view, p.ops); } catch (e) { this.resync(); return null; }
      this.decision = frame.decision;
      if (this.checkOn && !this.check && this.random() < 0.2) {
        this.check = { decision: frame.decision, view: this.view };
        this.send({ type: 'resync' });
      }
    } else if (frame.view) {
      if (this.check && this.check.decision === frame.decision && !equal(this.check.view, frame.view)) {
        const d = document.body.dataset;
        d.deltaMismatch = String((+d.deltaMismatch || 0) + 1);
        // an uncaught error: the browser tests count every one as a failure
        const at = frame.decision;
        setTimeout(() => { throw new Error(`the patched view differs from the whole view at decision ${at}`); }, 0);
      } else if (this.check && this.check.decision === frame.decision) {
        const d = document.body.dataset;
        d.deltaChecked = String((+d.deltaChecked || 0) + 1);
      }
      this.check = null;
      this.waiting = false;
      this.view = frame.view;
      this.decision = frame.decision;
    }
    if (this.view === null) return null;
    frame.view = Object.assign({}, this.view, this.staticPart);
    return frame;
  }
}
