// Friends come and go at a table of people (docs/protocol.md §1c), the same for every game: at a
// table of more than two seats, a person away (no page open: `presence`) for the table's
// `data-stand-in-after-s` is said to have left, with a button that lets the computer play for
// them (`stand_in`; the server judges the time again); the host may give a seat the computer
// plays to someone new (`give_seat`) and is then shown its new link (`?seat=<n>&g=<count>`).
// The others are told when the computer stands in, when its person comes back, when someone new
// sits; at a table of two, that the friend has left the table. The box lies over the table
// (table.css), so nothing under the finger moves. A seat's stand-in mark is presence.js's.
import { $ } from "../live/dom.js";
import { copyText } from "./seat_links.js";

const HOST = 0; // the seat of whoever made a shared table (docs/protocol.md §1b)
const NEWS_MS = 8000; // how long the news of who came or went stays over the table

/** Whether the computer may stand in at the table of `state` (a shared table of more than two). */
export function standInsAllowed(state) {
  return Boolean(state?.shared) && state.seats.length > 2;
}

/** Whether `state`'s match ended because someone left a table of two for good. */
export function tableLeft(state) {
  return Boolean(state?.left?.length) && !standInsAllowed(state);
}

/** `text` with its first letter a capital (a sentence may begin with a seat's name). */
function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export class Comings {
  /** The comings and goings of `page` (its words, board, send and live region). */
  constructor(page) {
    this.page = page;
    this.box = $("comings");
    this.afterMs = Number(page.root.dataset.standInAfterS || 60) * 1000;
    this.awaySince = new Map(); // seat -> Date.now() when this page saw it go
    this.timer = null;
    this.news = "";
    this.newsTimer = null;
  }

  /** The server says `here` are at the table (the seats with a page open). */
  heardPresence(here, state) {
    const now = Date.now();
    for (const seat of this.people(state)) {
      if (here.includes(seat)) this.awaySince.delete(seat);
      else if (!this.awaySince.has(seat)) this.awaySince.set(seat, now);
    }
    this.draw(state);
  }

  /** A new `state` after `previous`: the news it brings, said once ([text]), and the box drawn. */
  stateCame(previous, state) {
    const news = previous ? this.changes(previous, state) : [];
    if (news.length) {
      // Said in the live region by the page too; over the table only a while (the seat's badge
      // keeps showing a stand-in).
      this.news = news.join(" ");
      clearTimeout(this.newsTimer);
      this.newsTimer = setTimeout(() => {
        this.news = "";
        this.draw(this.page.current);
      }, NEWS_MS);
    }
    this.draw(state);
    return news;
  }

  /** The other people's seats of `state`. */
  people(state) {
    if (!state?.shared) return [];
    return state.seats.flatMap((kind, seat) => (kind === "human" && seat !== state.seat ? [seat] : []));
  }

  changes(previous, state) {
    const name = this.names(state);
    const was = (list, seat) => (previous[list] ?? []).includes(seat);
    const is = (list, seat) => (state[list] ?? []).includes(seat);
    const news = [];
    for (const seat of this.people(state)) {
      if (is("left", seat) && !was("left", seat)) {
        news.push(this.page.t("leaving.left", { name: name(seat) }));
      } else if (is("stand_in", seat) && !was("stand_in", seat)) {
        news.push(this.page.t("leaving.standing_in", { name: name(seat) }));
      } else if (was("stand_in", seat) && !is("stand_in", seat)) {
        const key = was("vacant", seat) || was("left", seat) ? "leaving.newcomer" : "leaving.back";
        news.push(this.page.t(key, { name: name(seat) }));
      }
    }
    return news.map(capital);
  }

  /** How the page's sentences name a seat of `state` ("your partner", "West"). */
  names(state) {
    return (seat) => this.page.board.seatInSentence(seat, state);
  }

  /** Draw the box for `state`: the news, who has left, the host's seats to give and new links. */
  draw(state) {
    clearTimeout(this.timer);
    if (!this.box || !state) return;
    const { t } = this.page;
    const name = this.names(state);
    const parts = [];
    if (this.news) parts.push(this.line(this.news, "comings-news"));
    const mine = state.seat !== null && !state.stand_in.includes(state.seat);
    const standIns = standInsAllowed(state);
    // At a table of two the friend's badge says they are away; once a deal is over its end
    // screen lies over the badge, and the next deal waits for them: the screen says so.
    const waited = !standIns && Boolean(state.view?.deal?.outcome);
    if (mine && (standIns || waited)) {
      let next = Infinity;
      for (const seat of this.people(state)) {
        if (state.stand_in.includes(seat) || !state.seated[seat]) continue;
        const since = this.awaySince.get(seat);
        if (since === undefined) continue;
        const due = since + this.afterMs - Date.now();
        if (due > 0) {
          next = Math.min(next, due);
          continue;
        }
        if (!standIns) {
          parts.push(this.line(t("leaving.away.two", { name: name(seat) }), `away-${seat}`));
          continue;
        }
        parts.push(this.line(t("leaving.away", { name: name(seat) }), `away-${seat}`));
        parts.push(this.button(t("leaving.stand_in", { name: name(seat) }), `stand-in-${seat}`,
          t("leaving.stand_in_for", { name: name(seat) }), () => this.page.send({ type: "stand_in", seat })));
      }
      if (next !== Infinity) this.timer = setTimeout(() => this.draw(this.page.current), next + 50);
      if (standIns && state.seat === HOST) parts.push(...this.hostParts(state, name));
    }
    this.box.replaceChildren(...parts);
    this.box.hidden = parts.length === 0;
  }

  hostParts(state, name) {
    const { t } = this.page;
    const parts = [];
    for (const seat of state.stand_in) {
      if (seat === state.seat) continue;
      if (!state.vacant.includes(seat)) {
        parts.push(this.button(t("leaving.give"), `give-seat-${seat}`, t("leaving.give_for", { name: name(seat) }),
          () => this.page.send({ type: "give_seat", seat })));
        continue;
      }
      parts.push(this.line(t("leaving.given", { name: name(seat) })));
      const input = document.createElement("input");
      input.type = "text";
      input.readOnly = true;
      input.value = `${this.page.root.dataset.link}?seat=${seat}&g=${state.given[seat]}`;
      input.dataset.testid = `new-link-${seat}`;
      input.setAttribute("aria-label", t("leaving.given", { name: name(seat) }));
      input.addEventListener("focus", () => input.select());
      parts.push(input);
      parts.push(this.button(t("leaving.copy"), `copy-new-link-${seat}`, null, () => copyText(input.value, input)));
    }
    return parts;
  }

  line(text, testid) {
    const p = document.createElement("p");
    p.textContent = capital(text);
    if (testid) p.dataset.testid = testid;
    return p;
  }

  button(text, testid, label, onClick) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = capital(text);
    button.dataset.testid = testid;
    if (label) button.setAttribute("aria-label", capital(label));
    button.addEventListener("click", onClick);
    return button;
  }
}
