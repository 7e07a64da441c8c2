// The page's invites and webhooks (invites.html): a one-time sign-in link with its QR code for
// a seat (the GM: anyone's, asking first when it re-issues a seat someone holds; everyone:
// another device of their own), the GM's list of seats, a seat's Discord link code for the GM
// (from the seats list, or beside a link just made), and the GM's webhooks through the same
// routes as `tablelog webhook`. The service decides and refuses; nothing is kept here.
"use strict";

const tablelogInvites = (function () {
  function start(options) {
    const { base, headers, sentence } = options;
    const box = document.getElementById("invites");
    if (!box) { return { refresh() {} }; }
    const out = document.getElementById("invite-out");
    const status = document.getElementById("invite-status");
    const form = document.getElementById("invite-form");
    const ask = document.getElementById("invite-ask");
    const seats = document.getElementById("seats-box");

    async function post(body) {
      return fetch(base + "/play/invites", {
        method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(body),
      });
    }

    // The GM's Discord codes (invites.html's discord_out): one box under the seats list, one
    // beside a link just made; absent from a player's page.
    const seatCode = discordCode("seat-discord", options);
    const inviteCode = discordCode("invite-discord-out", options);
    const alsoTools = document.getElementById("invite-discord-tools");
    const also = document.getElementById("invite-discord");
    let invited = null;  // the seat of the link shown, whose Discord code "Also" asks for

    function show(made) {
      document.getElementById("invite-said").textContent = made.said;
      if (alsoTools && inviteCode) {
        // A code links a player's seat or the GM's own: none for an observer.
        invited = made.role === "observer" ? null : made.player;
        alsoTools.hidden = invited === null;
        inviteCode.clear();  // an earlier name's code is not this link's
      }
      const link = document.getElementById("invite-link");
      link.value = made.link;
      link.setAttribute("aria-label", "Sign-in link of " + made.player);
      // The service's own markup (http/qr.py): an <svg> of paths, no script, no style.
      document.getElementById("invite-qr").innerHTML = made.qr;
      out.hidden = false;
      link.focus();
      link.select();
    }

    async function refreshSeats() {
      if (!seats) { return; }
      const answer = await fetch(base + "/play/seats", { credentials: "same-origin" });
      if (!answer.ok) { seats.textContent = "Could not read the seats: " + await sentence(answer); return; }
      const fragment = await answer.text();
      const focused = document.activeElement && seats.contains(document.activeElement) ? document.activeElement : null;
      seats.innerHTML = fragment;
      // The keyboard stays where it was: on the same seat's button, else on the list.
      if (focused) { (focused.tagName === "BUTTON" && sameButton(focused) || seats).focus(); }
    }

    function sameButton(button) {
      for (const key of ["invite", "discord"]) {
        const value = button.dataset[key];
        if (value !== undefined) { return seats.querySelector("button[data-" + key + '="' + CSS.escape(value) + '"]'); }
      }
      return null;
    }

    let pending = null;  // the invite the GM is asked to confirm
    async function invite(body, error) {
      status.textContent = "";
      if (error) { error.hidden = true; }
      const answer = await post(body);
      if (answer.ok) {
        if (ask) { ask.hidden = true; }
        pending = null;
        show(await answer.json());
        refreshSeats();
        return;
      }
      if (answer.status === 409 && !body.confirmed && ask) {
        const asked = await answer.json();
        if (asked.code === "seat-held") {
          pending = Object.assign({}, body, { confirmed: true });
          document.getElementById("invite-question").textContent = asked.message;
          ask.hidden = false;
          document.getElementById("invite-no").focus();
          return;
        }
        status.textContent = asked.code + ": " + asked.message;
        return;
      }
      const said = await sentence(answer);
      if (error) { error.textContent = said; error.hidden = false; error.focus(); } else { status.textContent = said; }
    }

    if (form) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const player = form.elements.player.value.trim();
        invite({ player: player, role: form.elements.role.value }, form.querySelector(".error"));
      });
      document.getElementById("invite-yes").addEventListener("click", () => {
        if (pending) { invite(pending, form.querySelector(".error")); }
      });
      document.getElementById("invite-no").addEventListener("click", () => {
        ask.hidden = true;
        status.textContent = "No link made: " + (pending ? pending.player : "the seat") + " stays signed in as before.";
        pending = null;
      });
    }
    if (seats) {
      document.getElementById("seats-refresh").addEventListener("click", refreshSeats);
      // Who signed in since: seen again whenever the GM comes back to this tab.
      document.addEventListener("visibilitychange", () => { if (!document.hidden) { refreshSeats(); } });
      seats.addEventListener("click", (event) => {
        const code = event.target.closest("button[data-discord]");
        if (code && seatCode) { seatCode.ask(code.dataset.discord, code); return; }
        const button = event.target.closest("button[data-invite]");
        if (!button) { return; }
        invite({ player: button.dataset.invite, role: button.dataset.inviteRole }, null);
      });
    }
    if (also && inviteCode) {
      also.addEventListener("click", () => { if (invited !== null) { inviteCode.ask(invited, also); } });
    }
    document.getElementById("device-link").addEventListener("click", () => {
      invite({ player: box.dataset.player, role: box.dataset.role }, null);
    });
    document.getElementById("invite-copy").addEventListener("click", async () => {
      const link = document.getElementById("invite-link");
      link.select();
      try {
        await navigator.clipboard.writeText(link.value);
        status.textContent = "Link copied.";
      } catch (e) {
        status.textContent = "Copy it by hand: the link is selected.";
      }
    });
    refreshSeats();
    webhooks(options);
    return { refresh: refreshSeats };
  }

  // A seat's one-time code for `/tl link CODE` (the GM's, through the same route as
  // `tablelog discord code PLAYER`), shown in the box `id` only: the command with a copy
  // button and when it stops working, in the box's polite live region; a refusal is the
  // service's sentence, focused. The asking button keeps the focus while it waits (a disabled
  // one would drop it). Null when the page has no such box (a player's).
  function discordCode(id, options) {
    const { base, headers, sentence } = options;
    const box = document.getElementById(id);
    if (!box) { return null; }
    const said = document.getElementById(id + "-said");
    const tools = document.getElementById(id + "-tools");
    const copy = document.getElementById(id + "-copy");
    const status = document.getElementById(id + "-status");
    const error = document.getElementById(id + "-error");
    const WHEN = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
    let busy = false;
    let command = null;  // the <code> shown, for the copy button

    function clear() {
      said.replaceChildren();
      tools.hidden = true;
      error.hidden = true;
      status.textContent = "";
      command = null;
    }

    function show(made) {
      const who = document.createElement("bdi");
      who.textContent = made.player;
      command = document.createElement("code");
      command.className = "discord-command";
      command.textContent = "/tl link " + made.code;
      const line = document.createElement("p");
      line.append("Discord link code of ", who, ": in the campaign's Discord channel, type ", command);
      const when = document.createElement("time");
      when.dateTime = made.expires;
      when.textContent = new Date(made.expires).toLocaleString([], WHEN);
      const until = document.createElement("p");
      until.append("It works once, until ", when, ".");
      said.replaceChildren(line, until);
      copy.textContent = "Copy " + made.player + "'s command";
      tools.hidden = false;
    }

    function refuse(text) {
      error.textContent = text;
      error.hidden = false;
      error.focus();
    }

    async function ask(player, button) {
      if (busy) { return; }
      busy = true;
      button.setAttribute("aria-disabled", "true");
      clear();
      try {
        let answer;
        try {
          answer = await fetch(base + "/discord/codes", {
            method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify({ player: player }),
          });
        } catch (failure) {  // no answer at all: the service or the network is down
          refuse("The service did not answer, so no code was made for " + player + "; try again once the page says it is live.");
          return;
        }
        if (!answer.ok) { refuse("No Discord code for " + player + ": " + await sentence(answer)); return; }
        show(await answer.json());
      } finally {
        busy = false;
        button.removeAttribute("aria-disabled");
      }
    }

    copy.addEventListener("click", async () => {
      if (!command) { return; }
      window.getSelection().selectAllChildren(command);
      try {
        await navigator.clipboard.writeText(command.textContent);
        status.textContent = "Command copied: send it privately, with the sign-in link if they need one.";
      } catch (e) {  // no clipboard here (a page over plain HTTP, say)
        status.textContent = "Copy it by hand: the command is selected.";
      }
    });
    return { ask, clear };
  }

  function webhooks(options) {
    const { base, headers, sentence } = options;
    const section = document.getElementById("webhooks");
    if (!section) { return; }
    const body = document.querySelector("#webhook-list tbody");
    const status = document.getElementById("webhooks-status");
    const form = document.getElementById("webhook-form");

    function cell(text) {
      const td = document.createElement("td");
      td.textContent = text;
      return td;
    }
    function row(hook) {
      const tr = document.createElement("tr");
      tr.dataset.webhook = hook.id;
      const id = document.createElement("th");
      id.scope = "row";
      const code = document.createElement("code");
      code.textContent = hook.id;
      id.append(code);
      const state = hook.status + (hook.disabled_reason ? ": " + hook.disabled_reason : hook.last_error ? ": " + hook.last_error : "")
        + (hook.pending ? " (" + hook.pending + " waiting)" : "");
      const action = document.createElement("td");
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "quiet";
      remove.dataset.removeWebhook = hook.id;
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", "Remove webhook " + hook.id);
      action.append(remove);
      tr.append(id, cell(hook.url), cell(hook.format + " on " + hook.on.join(", ")), cell(state), action);
      return tr;
    }
    async function refresh() {
      const answer = await fetch(base + "/webhooks", { credentials: "same-origin" });
      if (!answer.ok) { status.textContent = "Could not read the webhooks: " + await sentence(answer); return; }
      const hooks = (await answer.json()).webhooks;
      body.replaceChildren(...hooks.map(row));
      status.textContent = hooks.length ? hooks.length + " webhook(s)." : "No webhook yet.";
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const error = form.querySelector(".error");
      error.hidden = true;
      const on = [...form.querySelectorAll('input[name="on"]:checked')].map((c) => c.value);
      const sent = { url: form.elements.url.value.trim(), format: form.elements.format.value, on: on.join(",") };
      const answer = await fetch(base + "/webhooks", {
        method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(sent),
      });
      if (!answer.ok) { error.textContent = await sentence(answer); error.hidden = false; error.focus(); return; }
      const added = await answer.json();
      form.elements.url.value = "";  // a credential: not kept on the page
      const secret = document.getElementById("webhook-secret");
      secret.hidden = !added.secret;
      if (added.secret) {
        document.getElementById("webhook-secret-id").textContent = added.id;
        document.getElementById("webhook-secret-value").textContent = added.secret;
      }
      await refresh();
      status.textContent = "Webhook " + added.id + " added. " + status.textContent;
    });
    body.addEventListener("click", async (event) => {
      const button = event.target.closest("button[data-remove-webhook]");
      if (!button) { return; }
      const id = button.dataset.removeWebhook;
      button.disabled = true;
      const answer = await fetch(base + "/webhooks/" + encodeURIComponent(id), {
        method: "DELETE", credentials: "same-origin", headers: headers(),
      });
      if (!answer.ok) { button.disabled = false; status.textContent = "Could not remove " + id + ": " + await sentence(answer); return; }
      await refresh();
      status.textContent = "Webhook " + id + " removed. " + status.textContent;
    });
    refresh();
  }

  return { start };
})();
