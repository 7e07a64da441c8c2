// The page's "Notices" box: the viewer links their own Discord id and sets their own e-mail
// address, through the same contact routes as `tablelog player discord|email` (the page's
// session cookie and CSRF header sign each post), and gets a code for `/tl link` in Discord. The service decides and refuses; the box
// is then read again as the server renders it, which shows only a hint of the address: the
// answer of a post (which holds the address) is not kept.
"use strict";

const tablelogNotices = (function () {
  const DONE = {
    discord: ["Discord id linked: the table mentions you in its Discord channel when it waits on you.", "Discord id unlinked."],
    email: ["Address set: a mail comes when the table waits on you.", "Address cleared: no more mail."],
  };

  function start(options) {
    const { base, headers, sentence } = options;
    const section = document.getElementById("notices");
    const box = document.getElementById("notices-box");
    const status = document.getElementById("notices-status");
    if (!section || !box || !status) { return { refresh() {} }; }
    const seat = section.dataset.seat;

    async function refresh() {
      const answer = await fetch(base + "/play/notices", { credentials: "same-origin" });
      if (!answer.ok) { status.textContent = "Could not read your contact: " + await sentence(answer); return; }
      const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
      box.innerHTML = await answer.text();
      const again = focused && document.getElementById(focused);
      // A button that went away (Unlink, once unlinked) leaves the focus on its form's field.
      if (focused) { (again || box.querySelector("form.contact input") || status).focus(); }
    }

    // `value` null clears; anything else is sent as typed (the service checks it).
    async function send(form, value) {
      const channel = form.dataset.channel;
      const error = form.querySelector(".error");
      const buttons = [...form.querySelectorAll("button")];
      error.hidden = true;
      status.textContent = "";
      buttons.forEach((b) => { b.disabled = true; });
      try {
        const body = channel === "discord" ? { user_id: value } : { address: value };
        const answer = await fetch(base + "/players/" + encodeURIComponent(seat) + "/" + channel, {
          method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify(body),
        });
        if (!answer.ok) {
          error.textContent = await sentence(answer);
          error.hidden = false;
          error.focus();
          return;
        }
        await refresh();
        status.textContent = DONE[channel][value === null ? 1 : 0];
      } finally {
        buttons.forEach((b) => { if (b.isConnected) { b.disabled = false; } });
      }
    }

    box.addEventListener("submit", (event) => {
      const form = event.target.closest("form.contact");
      if (!form) { return; }
      event.preventDefault();
      send(form, form.querySelector("input[name]").value);
    });
    box.addEventListener("click", (event) => {
      const button = event.target.closest("button[data-clear]");
      if (!button) { return; }
      send(button.closest("form.contact"), null);
    });
    discordCode(options);
    return { refresh };
  }

  // The box's Discord part (discord_code.html): a one-time code for `/tl link CODE`, for the
  // viewer's own seat (`player` null) through the same route as the GM's `tablelog discord
  // code`. It is shown here only, in the part's polite live region, with when it stops
  // working; a refusal is the service's sentence. Nothing is kept once the page is left.
  function discordCode(options) {
    const { base, headers, sentence } = options;
    const make = document.getElementById("discord-code-make");
    if (!make) { return; }
    const said = document.getElementById("discord-code-said");
    const tools = document.getElementById("discord-code-tools");
    const error = document.getElementById("discord-code-error");
    const status = document.getElementById("discord-code-status");
    const WHEN = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
    let busy = false;  // the button stays focusable while it waits (a disabled one drops the focus)

    function show(made) {
      const command = document.createElement("code");
      command.id = "discord-code-command";
      command.textContent = "/tl link " + made.code;
      const line = document.createElement("p");
      line.append("In the campaign's Discord channel, type ", command);
      const when = document.createElement("time");
      when.id = "discord-code-expires";
      when.dateTime = made.expires;
      when.textContent = new Date(made.expires).toLocaleString([], WHEN);
      const until = document.createElement("p");
      until.append("It works once, until ", when, ".");
      said.replaceChildren(line, until);
      tools.hidden = false;
    }

    function refuse(text) {
      error.textContent = text;
      error.hidden = false;
      error.focus();
    }

    make.addEventListener("click", async () => {
      if (busy) { return; }
      busy = true;
      make.setAttribute("aria-disabled", "true");
      error.hidden = true;
      status.textContent = "";
      try {
        let answer;
        try {
          answer = await fetch(base + "/discord/codes", {
            method: "POST", credentials: "same-origin", headers: headers(), body: JSON.stringify({ player: null }),
          });
        } catch (failure) {  // no answer at all: the service or the network is down
          refuse("The service did not answer, so no code was made; try again once the page says it is live.");
          return;
        }
        if (!answer.ok) { refuse(await sentence(answer)); return; }
        show(await answer.json());
      } finally {
        busy = false;
        make.removeAttribute("aria-disabled");
      }
    });
    document.getElementById("discord-code-copy").addEventListener("click", async () => {
      const command = document.getElementById("discord-code-command");
      if (!command) { return; }
      window.getSelection().selectAllChildren(command);
      try {
        await navigator.clipboard.writeText(command.textContent);
        status.textContent = "Command copied: paste it in the Discord channel.";
      } catch (e) {  // no clipboard here (a page over plain HTTP, say)
        status.textContent = "Copy it by hand: the command is selected.";
      }
    });
  }

  return { start };
})();
