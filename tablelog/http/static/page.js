// The tablelog page: signs in with the link's fragment, sends each action to its command's
// endpoint, and follows the campaign's live feed. No rule and no hiding lives here: the
// server renders what the caller may see and refuses what the caller may not do.
"use strict";

(function () {
  const signIn = document.getElementById("sign-in");
  const page = document.getElementById("page");
  if (signIn) {
    trade(signIn.dataset.campaign, document.getElementById("sign-in-status"));
    return;
  }
  if (page) {
    live(page);
    // A link opened where a session is already signed in (a link posted in a channel, say)
    // changes nothing without a click: the page asks first, and the link stays unused.
    offerLink(page);
    // The same page's link opened in this tab changes only the fragment: no reload.
    window.addEventListener("hashchange", () => offerLink(page));
  }

  // The link's token, out of the address bar (and the history) before anything else happens.
  // Another fragment stays: the banner's link to the form that makes the viewer's move.
  function takeToken() {
    const token = new URLSearchParams(location.hash.slice(1)).get("token");
    if (token !== null) { history.replaceState(null, "", location.pathname + location.search); }
    return token;
  }

  function send(campaign, token, replace) {
    return fetch(base(campaign) + "/play/session", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: token, replace: replace }),
    });
  }

  async function trade(campaign, status) {
    const token = takeToken();
    if (!token) {
      status.textContent = "You are not signed in. Open the sign-in link the GM gave you.";
      return;
    }
    status.textContent = "Signing you in with your link…";
    let answer;
    try {
      answer = await send(campaign, token, false);
    } catch (error) {  // no answer at all: say so, never hang on "Signing you in"
      status.textContent = "The service did not answer; your link was not used. Check your connection and open the link again.";
      return;
    }
    if (answer.ok) { location.replace(location.pathname); return; }
    say(status, await sentence(answer));
  }

  let asking = null;  // the open question's buttons, removed once it is answered
  async function offerLink(page) {
    const token = takeToken();
    if (!token) { return; }
    const campaign = page.dataset.campaign;
    const status = document.getElementById("live");
    // Not traded while this browser is signed in: the service answers who the link is for.
    const answer = await send(campaign, token, false);
    if (answer.status === 201) { location.replace(location.pathname); return; }  // no session held any more
    if (answer.status === 200) {
      const seat = await answer.json();
      status.textContent = "That sign-in link is for " + seat.player + ", who this browser is signed in as already; it was left unused.";
      return;
    }
    if (answer.status !== 409) { status.textContent = "That sign-in link was not used: " + await sentence(answer); return; }
    const asked = await answer.json();
    const box = document.getElementById("switch-seat");
    const yes = document.getElementById("switch-yes");
    const no = document.getElementById("switch-no");
    document.getElementById("switch-question").textContent = asked.message;
    yes.textContent = "Sign in as " + (asked.link.role === "gm" ? "the GM" : asked.link.player);
    no.textContent = "No, stay " + (asked.current.role === "gm" ? "the GM" : asked.current.player);
    box.hidden = false;
    no.focus();
    if (asking) { asking.abort(); }  // a second link replaces the first's question
    const done = asking = new AbortController();
    yes.addEventListener("click", async () => {
      yes.disabled = true;
      const traded = await send(campaign, token, true);
      if (traded.ok) { location.replace(location.pathname); return; }
      yes.disabled = false;
      box.hidden = true;
      done.abort();
      status.textContent = "Could not sign in with that link: " + await sentence(traded);
    }, { signal: done.signal });
    no.addEventListener("click", () => {
      box.hidden = true;
      done.abort();
      status.textContent = "Still signed in as " + asked.current.player + "; that sign-in link was left unused.";
    }, { signal: done.signal });
  }

  function base(campaign) { return "/campaigns/" + encodeURIComponent(campaign); }

  // A text a person typed may hold direction controls (U+202E shows the rest of its line
  // backwards). `say` puts `text` in `element` with each of `typed` that holds one, where the
  // text quotes it, and then the whole text, in a <bdi> of its own: none reorders anything
  // around it (the server isolates its own HTML the same way: http/isolation.py). A PDI
  // that closes no isolate of its own is dropped (it would close the <bdi>'s), and an
  // isolate left open is closed where its text ends.
  function balanced(text) {
    let depth = 0, kept = "";
    for (const ch of text) {
      if (ch === "\u2066" || ch === "\u2067" || ch === "\u2068") { depth += 1; }
      else if (ch === "\u2069") { if (depth === 0) { continue; } depth -= 1; }
      kept += ch;
    }
    return kept + "\u2069".repeat(depth);
  }
  function say(element, text, typed) {
    const CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
    element.textContent = "";
    if (!CONTROL.test(text)) { element.textContent = text; return; }
    const known = [...new Set((typed || []).filter((t) => CONTROL.test(t)))].sort((a, b) => b.length - a.length);
    const whole = document.createElement("bdi");
    whole.dir = "ltr";  // the page's own sentence: a name in Hebrew letters must not turn it
    let at = 0;
    while (at < text.length) {
      let next = -1, found = "";
      for (const t of known) {  // the earliest quote, the longest at one place
        const i = text.indexOf(t, at);
        if (i >= 0 && (next < 0 || i < next)) { next = i; found = t; }
      }
      if (next < 0) { whole.append(balanced(text.slice(at))); break; }
      if (next > at) { whole.append(balanced(text.slice(at, next))); }
      const quoted = document.createElement("bdi");
      quoted.textContent = balanced(found);
      whole.append(quoted);
      at = next + found.length;
    }
    element.append(whole);
  }

  async function sentence(answer) {
    try {
      const body = await answer.json();
      if (body && body.code && body.message) { return body.code + ": " + body.message; }
    } catch (e) { /* not JSON */ }
    return "the service answered " + answer.status;
  }

  function live(page) {
    const campaign = page.dataset.campaign;
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const status = document.getElementById("live");
    const table = document.getElementById("table");
    let seq = Number(page.dataset.seq);
    let announced = seq;  // the live region has said every event up to here
    let moves = Number(page.dataset.moves) || 0;  // the viewer's own steps the table waits on
    let interrupted = false;
    let feed = null;
    let pending = false;
    let again = false;
    let signedOut = false;

    function headers() {
      return { "Content-Type": "application/json", "X-CSRF-Token": csrf };
    }

    // Whether the live feed is up, said honestly: "Reconnecting…" from the moment it is
    // down (an error, the network gone, or no word from the service for STALE_MS: the service
    // says "alive" every 15 s, so a feed silently cut, say by a phone's sleep, is noticed).
    const connection = document.getElementById("connection");
    const STALE_MS = 40000;
    let lastHeard = Date.now();
    let retryDelay = 1000;
    let retryTimer = null;

    function connected(state, text) {
      connection.hidden = false;
      if (connection.dataset.state === state) { return; }  // said once, not at every retry
      connection.dataset.state = state;
      connection.className = "connection " + state;
      connection.textContent = text;
    }

    function down(text) {
      interrupted = true;
      connected("down", text || "Reconnecting… the table may be out of date until the live feed is back.");
    }

    function heard() { lastHeard = Date.now(); }

    function retryLater() {
      if (signedOut) { return; }
      clearTimeout(retryTimer);
      retryTimer = setTimeout(async () => {
        try { await refresh(); } catch (error) { /* still down: the feed's error says so */ }
        if (!signedOut) { follow(); }
      }, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 30000);
    }

    function ended(why) {
      signedOut = true;
      clearTimeout(retryTimer);
      connected("ended", "Not live: signed out.");
      if (feed) { feed.close(); }
      say(status, why);
      status.className = "live ended";
      // Signed out: what only this seat could see leaves the screen too (a hand, a card face
      // up), so a phone handed on shows none of it; the forms still in view do nothing.
      const gone = document.createElement("p");
      gone.className = "hint";
      gone.id = "table-hidden";
      gone.textContent = "The table is hidden in this browser while it is signed out; open a new sign-in link to see it again.";
      table.replaceChildren(gone);
      for (const control of document.querySelectorAll("form button, form input, form select, form textarea")) {
        control.disabled = true;
      }
    }

    // Swap in the table as it stands, keeping what the person was typing and where.
    async function refresh() {
      if (signedOut) { return; }
      if (pending) { again = true; return; }  // once this one is done, fetch once more
      pending = true;
      try {
        let answer;
        try {
          answer = await fetch(base(campaign) + "/play/table", { credentials: "same-origin" });
        } catch (error) {  // no answer at all: the service or the network is down
          down();
          return;
        }
        if (answer.status === 401 || answer.status === 403) { ended("Signed out: " + await sentence(answer)); return; }
        if (!answer.ok) { say(status, "Could not refresh: " + await sentence(answer)); return; }
        const html = await answer.text();
        const typed = new Map();
        for (const input of table.querySelectorAll("form.action [name]")) {
          if (!changed(input)) { continue; }  // untouched: take the new table's default
          const key = input.form.dataset.key + "/" + input.name;
          typed.set(key, input.type === "checkbox" ? input.checked : input.value);
        }
        const focused = document.activeElement && document.activeElement.id;
        const open = [...table.querySelectorAll("details[open]")].map((d) => d.id);
        table.innerHTML = html;
        for (const input of table.querySelectorAll("form.action [name]")) {
          const key = input.form.dataset.key + "/" + input.name;
          if (!typed.has(key)) { continue; }
          if (input.type === "checkbox") { input.checked = typed.get(key); } else { input.value = typed.get(key); }
        }
        for (const id of open) { const d = document.getElementById(id); if (d) { d.open = true; } }
        for (const input of table.querySelectorAll("form.action input[data-kind]")) { listTyped(input); }
        if (focused) { const f = document.getElementById(focused); if (f) { f.focus(); } }
        const shown = table.querySelector("[data-table-seq]");
        if (shown) { seq = Math.max(seq, Number(shown.dataset.tableSeq)); }
        const awaitedBefore = moves;
        showAwaits(table.querySelector("template[data-awaits]"));
        announce(table.querySelector("template[data-said]"), moves > 0 && awaitedBefore === 0);
        openDue();
        fetchCheckpoints();
      } finally {
        pending = false;
        if (again) { again = false; refresh(); }
      }
    }

    // Whom the table waits on, as the new table says: the banner at the top, the tab's
    // title and its icon (a tab in the background says "(1) Your move" too).
    function showAwaits(next) {
      if (!next) { return; }
      document.getElementById("awaits").replaceChildren(next.content.cloneNode(true));
      document.title = next.dataset.title;
      document.getElementById("favicon").href = next.dataset.icon;
      moves = Number(next.dataset.moves) || 0;
      page.dataset.moves = String(moves);
      next.remove();
    }

    // What just happened, in the words of the log (as this viewer may read it), once each;
    // and, when it made this viewer awaited, what to do now. The server isolated each text.
    function announce(said, nowAwaited) {
      if (!said) { return; }
      const news = [...said.content.querySelectorAll("[data-seq]")].filter((s) => Number(s.dataset.seq) > announced);
      said.remove();
      if (news.length) {
        announced = Number(news[news.length - 1].dataset.seq);
        status.className = "live";
        status.replaceChildren();
        news.forEach((item, i) => { if (i) { status.append("; "); } status.append(...item.childNodes); });
        // A sentence someone typed may end one already ("Anna has the gate."): no "..".
        if (!/[.!?…]\s*$/.test(status.textContent)) { status.append("."); }
      } else if (interrupted) {
        status.textContent = "Up to date.";
      }
      interrupted = false;
      const move = nowAwaited && document.querySelector("#awaits .move");
      if (move) { status.append(" " + move.textContent); }
    }

    // A player's page takes its part in every committed shuffle awaiting its player (README,
    // "Committed shuffles"), in two steps: it pledges 32 random bytes of its own
    // (crypto.getRandomValues; only their commitment leaves, the bytes stay in localStorage),
    // and reveals them only once the service says every pledge is in. The GM's side chose the
    // server seed, so only players' pages do.
    let contributing = false;
    async function contribute() {
      if (page.dataset.role !== "player" || contributing || signedOut) { return; }
      if (!tablelogSealing.available()) { return; }
      contributing = true;
      try {
        for (let pass = 0; pass < 2; pass += 1) {
          const answer = await fetch(base(campaign) + "/rng/pending", { credentials: "same-origin" });
          if (!answer.ok) { return; }
          let pledgedNow = false;
          for (const item of await answer.json()) {
            const body = await rngStep(item);
            if (!body) { continue; }
            const path = body.commitment ? "/rng/pledges" : "/rng/contributions";
            const sent = await fetch(base(campaign) + path, {
              method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(body),
            });
            if (body.commitment && sent.ok) { pledgedNow = true; }
            if (!body.commitment && sent.ok) { tablelogSealing.forgetPledged(item.campaign, item.request, item.player); }
          }
          if (!pledgedNow) { break; }  // a pledge may have closed the pledges: reveal at once
        }
      } finally {
        contributing = false;
      }
    }

    async function rngStep(item) {
      if (item.phase === "pledge") {
        const value = crypto.getRandomValues(new Uint8Array(32));
        tablelogSealing.keepPledged(item.campaign, item.request, item.player, value);  // before sending
        const commitment = await tablelogSealing.pledge(item.campaign, item.request, item.player, value);
        return { request: item.request, commitment: commitment };
      }
      if (item.phase === "reveal") {
        const kept = tablelogSealing.pledged(item.campaign, item.request, item.player);
        if (!kept) { return null; }  // lost: it ends withheld
        return (await witnessed(item)) ? { request: item.request, value: kept } : null;
      }
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      return { request: item.request, value: tablelogSealing.hex(bytes) };
    }

    // Before a pledged value leaves this browser, the service signs the close of the pledges
    // (a checkpoint over that event, kept with the others): the log can then never show a
    // pledge made after this reveal without `tablelog verify --checkpoint` naming the rewrite.
    async function witnessed(item) {
      const at = Number(item.closed_seq);
      if (!at) { return false; }
      const log = await fetch(base(campaign) + "/log?since=" + (at - 1), { credentials: "same-origin" });
      if (!log.ok) { return false; }
      const shown = (await log.json()).find((e) => e.seq === at);
      if (!shown) { return false; }
      const line = JSON.parse(shown.line);
      const closes = line.type === "rng.pledges_closed" && line.payload.request === item.request
        && line.payload.pledged.includes(item.player);
      if (!closes) { return false; }
      const signed = await fetch(base(campaign) + "/checkpoint?seq=" + at, { credentials: "same-origin" });
      if (!signed.ok) { return false; }
      const checkpoint = await signed.json();
      if (checkpoint.seq !== at || checkpoint.hash !== line.hash) { return false; }
      tablelogSealing.keepCheckpoints(campaign, [checkpoint]);
      return true;
    }

    function changed(input) {
      if (input.type === "checkbox") { return input.checked !== input.defaultChecked; }
      if (input.tagName === "SELECT") {
        const first = [...input.options].find((o) => o.defaultSelected) || input.options[0];
        return first ? input.value !== first.value : false;
      }
      return input.value !== input.defaultValue;
    }

    function follow() {
      if (feed) { feed.close(); }
      heard();
      feed = new EventSource(base(campaign) + "/events?after=" + seq, { withCredentials: true });
      feed.addEventListener("event", (message) => {
        heard();
        seq = Math.max(seq, Number(message.lastEventId) || seq);
        refresh();  // the new table says in words what happened (`announce`)
        contribute();
      });
      feed.addEventListener("alive", heard);
      feed.addEventListener("revoked", async () => {  // the service says why (a re-issue, ...)
        feed.close();
        const why = await fetch(base(campaign) + "/play/table", { credentials: "same-origin" });
        ended("Signed out: " + (why.status === 401 ? await sentence(why) : "your access was revoked or your session ended. Ask the GM for a new link."));
      });
      feed.onerror = () => {
        if (signedOut) { return; }
        down();
        // The browser retries a dropped feed by itself, but gives up for good on an answer
        // that is not a feed (a 401, a proxy's 502): then the page retries, backing off.
        if (feed.readyState === EventSource.CLOSED) { retryLater(); }
      };
      feed.onopen = () => {
        heard();
        retryDelay = 1000;
        connected("live", "Live: moves appear here as they are made.");
        if (interrupted) { refresh(); }  // what was missed meanwhile
      };
    }

    setInterval(() => {
      if (signedOut || !feed || Date.now() - lastHeard < STALE_MS) { return; }
      down();
      feed.close();  // silent too long: a new feed, from the last seq seen
      heard();
      retryLater();
    }, 5000);
    window.addEventListener("offline", () => { if (!signedOut) { down("Offline: reconnecting when the network is back…"); } });
    window.addEventListener("online", () => {
      if (!signedOut && feed && feed.readyState !== EventSource.OPEN) { retryDelay = 1000; retryLater(); }
    });

    function value(input) {
      const kind = input.dataset.kind;
      if (kind === "flag") { return input.checked; }
      const text = input.value.trim();
      if (text === "") { return undefined; }
      if (kind === "number") { return Number(text); }
      if (kind === "list") { return text.split(/[\s,]+/).filter(Boolean); }
      if (kind === "lines") {  // one item per line, kept whole ("Sharp eyes" is one talent)
        const items = text.split("\n").map((line) => line.trim()).filter(Boolean);
        const columns = (input.dataset.columns || "").split(" ").filter(Boolean);
        if (!columns.length) { return items; }
        return items.map((line) => {  // `Brawn: 1d6+2`: the last column takes any colon left
          const parts = line.split(":").map((part) => part.trim());
          const found = {};
          columns.forEach((column, i) => {
            const part = i === columns.length - 1 ? parts.slice(i).join(":") : parts[i];
            if (part) { found[column] = part; }
          });
          return found;
        });
      }
      if (kind === "numbers") { return text.split(/[\s,]+/).filter(Boolean).map(Number); }
      if (kind === "pairs") {
        const found = {};
        for (const pair of text.split(/[,;\s]+/).filter(Boolean)) {
          const [name, word] = pair.split("=");
          found[name] = word === undefined ? "" : word;
        }
        return found;
      }
      if (kind === "map") {
        const found = {};
        for (const pair of text.split(/[,;\s]+/).filter(Boolean)) {
          const [name, count] = pair.split("=");
          found[name] = count === undefined ? 1 : Number(count);
        }
        return found;
      }
      if (kind === "groups") {
        const found = {};
        for (const group of text.split(";").map((g) => g.trim()).filter(Boolean)) {
          const [name, members] = group.split(":");
          found[name.trim()] = (members || "").split(/[\s,]+/).filter(Boolean);
        }
        return found;
      }
      return text;
    }

    // A field named `power.card.name` fills a field of an object inside the command (the
    // object `fixed` may have begun, e.g. a bid's power with its type chosen by the form).
    function place(body, name, v) {
      const path = name.split(".");
      let at = body;
      for (const part of path.slice(0, -1)) {
        if (typeof at[part] !== "object" || at[part] === null || Array.isArray(at[part])) { at[part] = {}; }
        at = at[part];
      }
      at[path[path.length - 1]] = v;
    }

    function sealSlot(form) {
      const d = form.dataset;
      return tablelogSealing.slot(campaign, d.sealConflict, d.sealRound, d.sealSide);
    }

    // A sealed form's body as it is sent: a play carries the commitment of its choice (kept
    // here with its salt), never the choice; an opening carries what this browser kept.
    // Returns the sentence to show instead of sending, or null.
    async function sealed(form, body) {
      const d = form.dataset;
      const slot = sealSlot(form);
      const parts = (d.sealParts || "").split(" ").filter(Boolean);
      if (d.sealMode === "opens") {
        const kept = tablelogSealing.opening(slot, d.sealCommitment);
        if (!kept) {
          return "this browser keeps no opening for " + d.sealSide + "'s sealed choice of round " +
            d.sealRound + " of " + d.sealConflict + ": open it from the browser (or the CLI) that played it";
        }
        if (parts.length) {
          for (const name of parts) { body[name] = kept.parts[name] || []; }
        } else {
          body[d.sealChoice] = kept.choice;
        }
        body.salt = kept.salt;
        return null;
      }
      let choice = body[d.sealChoice];
      let values = null;
      if (parts.length) {  // several list fields: `name=v1,v2;name2=v3` (projections/page.py)
        values = {};
        for (const name of parts) { values[name] = body[name] || []; delete body[name]; }
        choice = parts.map((name) => name + "=" + values[name].join(",")).join(";");
      } else {
        delete body[d.sealChoice];  // the choice never leaves this browser before the opening
      }
      if (!choice || (values && parts.every((name) => !values[name].length))) {
        return "choose what to seal first";
      }
      if (!tablelogSealing.available()) {
        return "this browser offers no SHA-256 on this page: sealed plays need the page over https (or opened on the service's own machine)";
      }
      const salt = tablelogSealing.newSalt();
      body.commitment = await tablelogSealing.commitment(campaign, d.sealConflict, d.sealRound, d.sealSide, choice, salt);
      tablelogSealing.keep(slot, body.commitment, choice, salt, values);  // before sending: a lost answer loses nothing
      return null;
    }

    // An opening this browser keeps is sent as soon as the page offers it (once per page
    // load: a refusal stays on the form, and its button is there to try again).
    const tried = new Set();
    function openDue() {
      for (const form of table.querySelectorAll('form.action[data-seal-mode="opens"]')) {
        const key = form.dataset.key + "/" + form.dataset.sealCommitment;
        if (tried.has(key) || !tablelogSealing.opening(sealSlot(form), form.dataset.sealCommitment)) { continue; }
        tried.add(key);
        form.requestSubmit();
      }
    }

    // Checkpoints: every session end's, fetched as the log moves, and the head's on demand.
    // Where the next look for session ends starts, kept with the checkpoints: a page load
    // does not read the whole log again.
    const sinceKey = "tablelog:checkpoints-since:" + campaign;
    let fetchingCheckpoints = false;
    let serviceKey = null;
    function showKept() {
      const kept = tablelogSealing.keptCheckpoints(campaign).map((line) => JSON.parse(line));
      const last = kept[kept.length - 1];
      let text = kept.length
        ? "This browser keeps " + kept.length + " checkpoint(s), the last at seq " + last.seq + "."
        : "No checkpoint kept yet.";
      const others = serviceKey ? kept.filter((c) => c.key !== serviceKey).length : 0;
      if (others) { text += " " + others + " of them are signed by another key than the service's now."; }
      document.getElementById("kept-checkpoints").textContent = text;
    }
    let checkpointsAgain = false;
    async function fetchCheckpoints() {
      if (signedOut) { return; }
      if (fetchingCheckpoints) { checkpointsAgain = true; return; }  // look once more after
      fetchingCheckpoints = true;
      const upto = seq;
      try {
        const since = Number(localStorage.getItem(sinceKey)) || 0;
        const answer = await fetch(base(campaign) + "/checkpoints?since=" + since, { credentials: "same-origin" });
        if (!answer.ok) { return; }
        tablelogSealing.keepCheckpoints(campaign, await answer.json());
        localStorage.setItem(sinceKey, String(Math.max(since, upto + 1)));  // the service read up to `upto` at least
        showKept();
      } finally {
        fetchingCheckpoints = false;
        if (checkpointsAgain) { checkpointsAgain = false; fetchCheckpoints(); }
      }
    }
    async function showKey() {
      const answer = await fetch("/key");
      if (answer.ok) { serviceKey = (await answer.json()).key; }
      document.getElementById("service-key").textContent = serviceKey || await sentence(answer);
      showKept();
    }

    // An irreversible or costly step asks once (`data-confirm`, `data-preview`), saying what
    // it will do as the service would decide it now (its preview: nothing is appended). The
    // answer: null to send, "" when the person said no, or the rules' refusal. A sealed
    // form's hidden choice never goes to a preview: it is asked without one.
    const dialog = document.getElementById("guard");
    async function guard(form, body, typed) {
      const question = form.dataset.confirm;
      if (!question && !form.dataset.preview) { return null; }
      const will = document.getElementById("guard-will");
      will.replaceChildren();
      if (!form.dataset.sealMode) {
        const shown = await previewed(form, body);
        if (shown.refused) { return shown.refused; }
        showLines(will, shown.lines, typed);
      }
      const title = form.querySelector("legend").textContent;
      say(document.getElementById("guard-question"), filled(question || title + "?", form), typed);
      document.getElementById("guard-yes").textContent = "Yes: " + title.charAt(0).toLowerCase() + title.slice(1);
      return new Promise((resolve) => {
        const done = (yes) => {
          dialog.removeEventListener("close", closed);
          if (dialog.open) { dialog.close(); }
          form.querySelector("button[type=submit]").focus();
          resolve(yes ? null : "");
        };
        const closed = () => done(false);  // Escape, or the Cancel button
        dialog.addEventListener("close", closed);
        document.getElementById("guard-yes").onclick = () => done(true);
        document.getElementById("guard-no").onclick = () => done(false);
        dialog.showModal();
        document.getElementById("guard-no").focus();  // the safe answer first
      });
    }

    // What the form would do if sent now, as the service decides it (nothing appended):
    // `refused` (a sentence) or `lines` to show.
    async function previewed(form, body) {
      let answer;
      try {
        answer = await fetch(base(campaign) + "/play/preview", {
          method: "POST", credentials: "same-origin", headers: headers(),
          body: JSON.stringify({ path: form.dataset.path, body: body }),
        });
      } catch (error) {
        return { refused: "The service did not answer; nothing was sent." };
      }
      if (!answer.ok) { return { refused: await sentence(answer) }; }
      const shown = await answer.json();
      if (shown.refused) { return { refused: shown.refused }; }
      const lines = shown.will.map((text) => "This will: " + text + ".");
      for (const change of shown.then) { lines.push("After it: " + change + "."); }
      if (shown.chance) { lines.push("What it draws is drawn when it is sent."); }
      if (shown.hidden) { lines.push("More of it is seen once it is done."); }
      return { lines: lines };
    }

    function showLines(element, lines, typed) {
      element.replaceChildren();
      for (const line of lines) {
        const p = document.createElement("p");
        say(p, line, typed);
        element.append(p);
      }
    }

    // The form's command body as it would be sent now: its fixed fields, then each field.
    function bodyOf(form) {
      const body = JSON.parse(form.dataset.fixed || "{}");
      for (const input of form.querySelectorAll("[name]")) {
        const v = value(input);
        if (v !== undefined) { place(body, input.name, v); }
      }
      return body;
    }

    // A costly step's form says, as it is filled in, what it would do (a pool's price, a
    // set's effect or that it matches none), a moment after the last change.
    const previewTimers = new WeakMap();
    function previewSoon(form) {
      const out = form.querySelector("p.preview");
      if (!out || signedOut) { return; }
      clearTimeout(previewTimers.get(form));
      previewTimers.set(form, setTimeout(async () => {
        const typed = [...form.querySelectorAll("[name]")].map((input) => input.value.trim());
        const shown = await previewed(form, bodyOf(form));
        out.hidden = false;
        showLines(out, shown.refused ? ["As it stands: " + shown.refused] : shown.lines, typed);
      }, 400));
    }

    // Chips write what was tapped into their list field (in the order tapped); what is typed
    // there ticks the chips it names.
    function chipsChanged(chip) {
      const input = document.getElementById(chip.dataset.chipFor);
      const words = input.value.split(/[\s,]+/).filter(Boolean);
      if (chip.checked) {
        words.push(chip.value);
      } else {
        const at = words.indexOf(chip.value);
        if (at >= 0) { words.splice(at, 1); }
      }
      input.value = words.join(" ");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }
    function listTyped(input) {
      const words = input.value.split(/[\s,]+/).filter(Boolean);
      for (const chip of document.querySelectorAll('input[data-chip-for="' + input.id + '"]')) {
        chip.checked = words.includes(chip.value);
      }
    }
    document.addEventListener("change", (event) => {
      const chip = event.target.closest("input[data-chip-for]");
      if (chip) { chipsChanged(chip); }
    });
    document.addEventListener("input", (event) => {
      const input = event.target;
      if (input.id && !input.matches("[data-chip-for]")) { listTyped(input); }
      const form = input.closest && input.closest("form.action[data-preview]");
      if (form) { previewSoon(form); }
    });
    document.addEventListener("click", (event) => {
      const step = event.target.closest("button.step");
      if (!step) { return; }
      const input = document.getElementById(step.dataset.for);
      const now = Number(input.value) || 0;
      input.value = String(now + Number(step.dataset.step));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });

    // The question with each `{field}` replaced by what the form holds there, as shown.
    function filled(question, form) {
      return question.replace(/\{([\w.]+)\}/g, (whole, name) => {
        const input = form.querySelector('[name="' + name + '"]');
        if (!input) { return whole; }
        if (input.tagName === "SELECT") { return input.selectedOptions[0] ? input.selectedOptions[0].textContent : ""; }
        return input.value.trim();
      });
    }

    document.addEventListener("submit", async (event) => {
      const form = event.target.closest("form.action");
      if (!form) { return; }
      event.preventDefault();
      const error = form.querySelector(".error");
      error.hidden = true;
      const body = JSON.parse(form.dataset.fixed || "{}");
      // What was typed, as sent: a refusal or the events' texts may quote it.
      const typed = [...form.querySelectorAll("[name]")].map((input) => input.value.trim());
      for (const input of form.querySelectorAll("[name]")) {
        const v = value(input);
        if (v !== undefined) { place(body, input.name, v); }
      }
      // A required text left empty: said here, in the form's words, before anything is sent
      // (the service would refuse a body without it, in a validator's words). An empty list
      // or choice still goes: the rules say what it must hold.
      const empty = [...form.querySelectorAll('[name][required][data-kind="text"]')].find((input) => input.value.trim() === "");
      if (empty) {
        const label = form.querySelector('label[for="' + empty.id + '"]');
        say(error, "Fill in " + (label ? label.textContent.trim() : empty.name) + " first; nothing was sent.", typed);
        error.hidden = false;
        empty.focus();
        return;
      }
      const button = form.querySelector("button[type=submit]");
      button.disabled = true;
      try {
        const refused = await guard(form, body, typed);
        if (refused !== null) {
          if (refused) {
            say(error, refused, typed);
            error.hidden = false;
            error.focus();
          }
          return;
        }
        const unsent = form.dataset.sealMode ? await sealed(form, body) : null;
        if (unsent) {
          say(error, unsent, typed);
          error.hidden = false;
          error.focus();
          return;
        }
        let answer;
        try {
          answer = await fetch(base(campaign) + form.dataset.path, {
            method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(body),
          });
        } catch (failure) {  // no answer at all: the service or the network is down
          down();
          say(error, "The service did not answer, so nothing was sent; send it again once the page says it is live.", typed);
          error.hidden = false;
          error.focus();
          return;
        }
        if (answer.ok) {
          const done = await answer.json();
          seq = Math.max(seq, done.seq || seq);
          announced = Math.max(announced, done.seq || 0);  // said here: "Done: …"
          if (form.dataset.sealMode === "opens") { tablelogSealing.forget(sealSlot(form)); }
          form.reset();  // done: what was typed in it is not kept for the next table
          say(status, "Done: " + done.events.map((e) => e.text).join("; "), typed);
          await refresh();
          return;
        }
        say(error, await sentence(answer), typed);
        error.hidden = false;
        error.focus();
      } finally {
        button.disabled = false;
      }
    });

    document.addEventListener("click", async (event) => {
      const target = event.target.closest("button");
      if (!target) { return; }
      if (target.id === "keep-checkpoint") {
        const answer = await fetch(base(campaign) + "/checkpoint", { credentials: "same-origin" });
        if (answer.ok) { tablelogSealing.keepCheckpoints(campaign, [await answer.json()]); showKept(); } else {
          document.getElementById("kept-checkpoints").textContent = "Could not sign a checkpoint: " + await sentence(answer);
        }
        return;
      }
      if (target.id === "download-checkpoints") {
        const kept = tablelogSealing.keptCheckpoints(campaign);
        const link = document.createElement("a");
        link.href = URL.createObjectURL(new Blob(kept.map((line) => line + "\n"), { type: "application/x-ndjson" }));
        link.download = campaign + "-checkpoints.jsonl";
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(link.href), 10000);
        return;
      }
      if (target.id === "sign-out") {
        const answer = await fetch(base(campaign) + "/play/sign-out", { method: "POST", credentials: "same-origin", headers: headers(), body: "{}" });
        ended(answer.ok ? "Signed out. Open a new sign-in link to come back." : "Could not sign out: " + await sentence(answer));
        return;
      }
      const tools = target.closest("details.tools");
      if (!tools) { return; }
      const out = tools.querySelector(".tool-out");
      if (target.dataset.audit) {
        const answer = await fetch(base(campaign) + "/play/audit?conflict=" + encodeURIComponent(target.dataset.audit), { credentials: "same-origin" });
        out.innerHTML = answer.ok ? await answer.text() : "";
        if (!answer.ok) { say(out, await sentence(answer)); }
      } else if (target.dataset.export) {
        const query = "?format=" + target.dataset.export + "&conflict=" + encodeURIComponent(target.dataset.conflict);
        const answer = await fetch(base(campaign) + "/export" + query, { credentials: "same-origin" });
        const text = answer.ok ? await answer.text() : await sentence(answer);
        out.textContent = "";
        const area = document.createElement("textarea");
        area.readOnly = true; area.rows = 12; area.value = text; area.className = "export";
        area.setAttribute("aria-label", target.dataset.export + " export of " + target.dataset.conflict);
        const copy = document.createElement("button");
        copy.type = "button"; copy.textContent = "Copy";
        copy.addEventListener("click", () => { area.select(); navigator.clipboard && navigator.clipboard.writeText(area.value); });
        out.append(area, copy);
      }
    });

    let replayTimer = null;
    document.addEventListener("input", (event) => {
      const slider = event.target;
      if (!slider.dataset || !slider.dataset.replay) { return; }
      const shown = document.getElementById(slider.id + "-seq");
      if (shown) { shown.textContent = slider.value; }
      clearTimeout(replayTimer);
      replayTimer = setTimeout(async () => {
        const out = slider.closest("details.tools").querySelector(".tool-out");
        const answer = await fetch(base(campaign) + "/play/table?at=" + slider.value, { credentials: "same-origin" });
        if (!answer.ok) { say(out, await sentence(answer)); return; }
        const holder = document.createElement("div");
        holder.innerHTML = await answer.text();
        const panel = holder.querySelector('[data-conflict="' + CSS.escape(slider.dataset.replay) + '"]');
        out.textContent = "";
        const note = document.createElement("p");
        note.className = "replay-note";
        note.textContent = "As of seq " + slider.value + (panel ? ":" : ": this conflict was not open then.");
        out.append(note);
        if (panel) {
          panel.removeAttribute("id");
          for (const el of panel.querySelectorAll("[id]")) { el.removeAttribute("id"); }
          const title = panel.querySelector("h2");
          if (title) { const h = document.createElement("h3"); h.append(...title.childNodes); title.replaceWith(h); }
          panel.removeAttribute("aria-labelledby");
          out.append(panel);
        }
      }, 150);
    });

    tablelogSessions.start({
      base: base(campaign), headers: headers, sentence: sentence, ended: ended, gm: page.dataset.role === "gm",
    });
    tablelogNotices.start({ base: base(campaign), headers: headers, sentence: sentence });
    tablelogInvites.start({ base: base(campaign), headers: headers, sentence: sentence });
    follow();
    showKey();
    showKept();
    fetchCheckpoints();
    openDue();
    contribute();  // requests that were already waiting when the page opened
  }
})();
