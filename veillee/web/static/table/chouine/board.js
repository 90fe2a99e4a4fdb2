// The Chouine board in the one table page (../page.js): it draws the view the server sends
// (docs/chouine-views.md) and turns a click into an action. It holds no rules and no rule
// numbers: which cards may be played and how (with which declaration, for how many points, in
// which order), why the others may not, and what the count adds up to, all come with the view;
// the match lengths on offer come from the game's declaration (rendered into the menu).
//
// Its own controls: the declaration chooser (a card playable more than one way), the last
// chance for the seven (a prompt that must be answered), swapping the seven, the trick viewer
// (your tricks, their last one), and the menu's "Restart as best of N", which asks first once
// something of the match would be lost.
import { $ } from "../../live/dom.js";
import { cardBack, cardImage, cardIndex, cardName, suitColour } from "../cards.js";
import { showCount } from "./count.js";
import { Trick } from "./trick.js";
import { declarationLabel, friendly, inProgress, score, turnLine } from "./words.js";

// The turn-up lies crosswise under the talon, its corner index sideways: its index again,
// upright on the end that shows (the picture keeps the card's name for screen readers).
function turnUpIndex(code, t) {
  const index = document.createElement("span");
  index.className = `turn-up-index ${suitColour(code)}`;
  index.setAttribute("aria-hidden", "true");
  index.textContent = cardIndex(code, t);
  return index;
}

// A row of declarations keeps its height (nothing above the hand moves): chips too many for its
// width are drawn tighter, a step at a time, until all are in sight: their cards overlapped,
// then their points without the name (the cards say which), then their cards overlapped more,
// at last their first card only (chouine.css).
const FIT_STEPS = ["overlap", "points", "stack", "first"];

function fitDeclarations() {
  for (const list of document.querySelectorAll("ul.declarations")) {
    delete list.dataset.fit;
    for (const step of FIT_STEPS) {
      if (list.scrollWidth <= list.clientWidth + 1) break;
      list.dataset.fit = step;
    }
  }
}

export class Board {
  presenceMark = true;
  dealOver = "count";

  constructor(page) {
    this.page = page;
    this.t = page.t;
    this.trick = new Trick($("trick"), page.t, page.trickPauseMs);
    this.restartChoice = null; // the restart waiting for the player's confirmation
    // a row whose width changes (the phone turned, the text size) fits its chips again
    const rows = new ResizeObserver(fitDeclarations);
    for (const list of document.querySelectorAll("ul.declarations")) rows.observe(list.parentElement);
    this.endScreen = {
      dialog: $("count"),
      show: (state) => showCount(state, this.t),
      newMatchOptions: (state) => ({ best_of: state.view.match.best_of }),
    };
    const act = (action) => page.act(action);
    $("swap").addEventListener("click", () => act("swap"));
    $("prompt-swap").addEventListener("click", () => { $("prompt").close(); act("swap"); });
    $("prompt-continue").addEventListener("click", () => { $("prompt").close(); act("continue"); });
    // The prompt must be answered: Escape does not dismiss it.
    $("prompt").addEventListener("cancel", (event) => event.preventDefault());
    $("chooser-cancel").addEventListener("click", () => $("chooser").close());
    $("viewer-close").addEventListener("click", () => $("viewer").close());
    $("my-tricks").addEventListener("click", () => {
      this.openViewer(this.t("chouine.table.my_tricks"), page.current.view.deal.own_tricks);
    });
    $("opp-last-trick").addEventListener("click", () => {
      const trick = page.current.view.deal.opponent_last_trick;
      if (trick) this.openViewer(this.t("chouine.table.opponent_last_trick"), [trick]);
    });
    for (const button of document.querySelectorAll("#menu [data-best-of]")) {
      button.addEventListener("click", () => { if (page.current) this.restartAs(Number(button.dataset.bestOf)); });
    }
    $("restart-yes").addEventListener("click", () => {
      $("restart").close();
      const restart = this.restartChoice;
      this.restartChoice = null;
      if (restart) restart();
    });
    $("restart-no").addEventListener("click", () => { this.restartChoice = null; $("restart").close(); });
  }

  // ---- what the page reads --------------------------------------------------------------------

  turnLine(state) {
    return turnLine(state, this.t);
  }

  score(state) {
    return { text: score(state, this.t) };
  }

  /** The seven's last chance is a state of its own (data-state "prompt"). */
  gameState(state) {
    const deal = state.view.deal;
    return deal.to_act === state.seat && deal.prompt === "seven" ? "prompt" : null;
  }

  seatName() {
    return this.t("friend.name");
  }

  seatInSentence() {
    return this.t("friend.in_sentence");
  }

  seatRows(state) {
    const text = this.t("friend.waiting.share_text", { best_of: state.view.match.best_of });
    return [{ seat: 1 - state.seat, place: "friend", label: this.t("friend.name"), shareText: text }];
  }

  reason(code, state, fallback) {
    return fallback ?? this.t(`reason.${code}`);
  }

  /** What the other seat played, for the live region. */
  news(state) {
    const deal = state.view.deal;
    const plays = friendly(state) ? "friend.live.plays" : "chouine.live.computer_plays";
    return [...deal.trick, ...(deal.last_trick?.cards ?? [])]
      .filter((entry) => entry.seat !== state.seat)
      .map((entry) => ({
        key: `${state.view.match.partie}:${entry.card}`,
        text: this.t(plays, { card: cardName(entry.card, this.t) }),
      }));
  }

  // ---- the hand -------------------------------------------------------------------------------

  choicesFor(state, card) {
    return state.view.deal.card_choices?.[card] ?? [];
  }

  /** A card may be played when the view gives it ways to be played; another is refused by a
   * rule (its reason) on your turn, or at rest (not your turn). */
  hand(state) {
    const deal = state.view.deal;
    const mine = deal.to_act === state.seat;
    const looks = {};
    const why = {};
    for (const card of deal.hand) {
      const reason = deal.refusals?.[card] ?? "not_your_turn";
      if (mine && this.choicesFor(state, card).length > 0) looks[card] = "pick";
      else {
        looks[card] = mine && reason !== "not_your_turn" ? "refused" : "rest";
        why[card] = this.t(`reason.${reason}`);
      }
    }
    return { looks, why, choosing: false };
  }

  tap(card, state) {
    const ways = this.choicesFor(state, card);
    if (ways.length === 0) {
      const { looks, why } = this.hand(state);
      this.page.refuse(why[card], looks[card]); // a dimmed card changes nothing
      return;
    }
    this.page.refusal.hide();
    if (ways.length === 1) this.page.play(card, ways[0].action);
    else this.chooseDeclaration(card, ways);
  }

  /** The ways to play `card`, as the view orders them (a chouine first, the plain play last). */
  chooseDeclaration(card, ways) {
    $("chooser-title").textContent = this.t("chouine.table.chooser.title", { card: cardName(card, this.t) });
    const buttons = ways.map((way) => {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = way.action;
      if (way.declaration) {
        button.className = "primary";
        button.dataset.testid = "declare-option";
        button.textContent = declarationLabel(way.declaration, this.t);
      } else {
        button.dataset.testid = "play-plain";
        button.textContent = this.t("chouine.table.chooser.plain");
      }
      button.addEventListener("click", () => { $("chooser").close(); this.page.play(card, way.action); });
      return button;
    });
    $("chooser-options").replaceChildren(...buttons);
    $("chooser").showModal();
  }

  // ---- drawing --------------------------------------------------------------------------------

  draw(state, previous, settled) {
    const t = this.t;
    const { deal, match } = state.view;
    const seat = state.seat;
    const other = 1 - seat;
    const mine = deal.to_act === seat;
    const root = this.page.root;
    root.dataset.trick = String(deal.trick_number);
    root.dataset.trump = deal.trump;

    $("match-line").textContent = t("chouine.match.line", { best_of: match.best_of, partie: match.partie });
    // The menu offers every other match length the game has (rendered from its declaration).
    // Nobody restarts a shared table's match alone: a new match is agreed after the last count.
    for (const button of document.querySelectorAll("#menu [data-best-of]")) {
      button.hidden = state.shared || Number(button.dataset.bestOf) === match.best_of;
    }
    $("opp-name").textContent = friendly(state) ? t("friend.name") : t("chouine.table.computer");
    this.drawPresence(state);
    const backs = $("opp-hand");
    backs.replaceChildren(...Array.from({ length: deal.hand_counts[other] }, () => cardBack()));
    backs.setAttribute("aria-label", t("chouine.table.opponent_cards", { n: deal.hand_counts[other] }));
    $("opp-piles").textContent = t("chouine.table.piles", { n: deal.piles[other] });
    $("my-piles").textContent = t("chouine.table.piles", { n: deal.piles[seat] });
    $("opp-declarations").replaceChildren(...this.declarations(deal.declarations[other]));
    $("my-declarations").replaceChildren(...this.declarations(deal.declarations[seat]));
    fitDeclarations();
    $("opp-last-trick").disabled = !deal.opponent_last_trick;
    $("my-tricks").disabled = deal.own_tricks.length === 0;

    // Talon and turn-up.
    $("talon-stack").replaceChildren(...(deal.talon_count > 0 ? [cardBack()] : []));
    $("talon-count").textContent = t("chouine.table.talon", { n: deal.talon_count });
    $("turn-up").replaceChildren(...(deal.turn_up ? [cardImage(deal.turn_up, t), turnUpIndex(deal.turn_up, t)] : []));
    $("trump-line").textContent = t("chouine.table.trump", { suit: t(`card.suit.${deal.trump}`) });

    this.trick.render(deal, seat, !previous);
    $("swap").hidden = !(mine && deal.prompt !== "seven" && deal.legal.includes("swap"));

    // The last chance for the seven.
    const prompt = $("prompt");
    if (mine && deal.prompt === "seven") {
      $("prompt-swap").disabled = !deal.legal.includes("swap");
      $("prompt-why").hidden = deal.legal.includes("swap");
      if (!prompt.open) prompt.showModal();
    } else if (prompt.open) prompt.close();
    if ($("chooser").open) $("chooser").close();
    // A restart asked about a match that has ended meanwhile no longer applies.
    if ($("restart").open && !inProgress(state)) {
      this.restartChoice = null;
      $("restart").close();
    }
    settled(); // a partie's count comes at once: its last trick is on it
  }

  drawPresence(state) {
    this.page.presence.fill($("opp-presence"), 1 - state.seat, state);
  }

  /** A seat's declarations as compact chips (the cards shown say the suit); the full words
   * for screen readers. Each chip holds its name and points, and its points alone for a row
   * too narrow for the names (fitDeclarations). */
  declarations(list) {
    return list.map((decl) => {
      const li = document.createElement("li");
      li.dataset.kind = decl.kind;
      li.setAttribute("aria-label", declarationLabel(decl, this.t));
      const name = document.createElement("span");
      name.className = "decl-name";
      name.setAttribute("aria-hidden", "true");
      name.textContent = this.t(`chouine.declshort.${decl.kind}`, { points: decl.points });
      li.append(name);
      if (decl.points) {
        const points = document.createElement("span");
        points.className = "decl-points";
        points.setAttribute("aria-hidden", "true");
        points.textContent = String(decl.points);
        li.append(points);
      }
      for (const card of decl.cards ?? []) li.append(cardImage(card, this.t));
      return li;
    });
  }

  openViewer(title, tricks) {
    $("viewer-title").textContent = title;
    $("viewer-cards").replaceChildren(...tricks.map((trick) => {
      const row = document.createElement("div");
      row.className = "viewer-trick";
      // (each trick is its lead then its answer, docs/chouine-views.md: say which is which)
      trick.forEach((card, i) => {
        const played = document.createElement("figure");
        played.className = "viewer-card";
        const caption = document.createElement("figcaption");
        caption.textContent = this.t(i === 0 ? "chouine.table.viewer.led" : "chouine.table.viewer.answer");
        played.append(cardImage(card, this.t), caption);
        row.append(played);
      });
      return row;
    }));
    $("viewer").showModal();
  }

  restartAs(bestOf) {
    const restart = () => this.page.send({ type: "new_match", options: { best_of: bestOf } });
    if (!inProgress(this.page.current)) {
      restart();
      return;
    }
    // One tap must not throw a running match away: ask first, in the page.
    $("restart-title").textContent = this.t("chouine.table.restart.title", { best_of: bestOf });
    this.restartChoice = restart;
    $("restart").showModal();
  }
}
