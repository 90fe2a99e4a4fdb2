// The SquareScores start page: this browser's sheets, and the form that starts a new one.
import { allSheets, remember } from "./mine.js";
import { reason, t } from "./labels.js";
import { registerServiceWorker } from "./sw-register.js";

const form = document.getElementById("new-sheet");
const presetSelect = document.getElementById("preset");

function showPresetSettings() {
  for (const fieldset of form.querySelectorAll(".preset-settings")) {
    const chosen = fieldset.dataset.preset === presetSelect.value;
    fieldset.hidden = !chosen;
    fieldset.disabled = !chosen;
  }
}

function settingsOf(fieldset) {
  const settings = {};
  let firstDealer = 0;
  for (const input of fieldset.querySelectorAll("[data-kind]")) {
    const kind = input.dataset.kind;
    if (kind === "bool") settings[input.name] = input.checked;
    else if (kind === "int") settings[input.name] = Number.parseInt(input.value, 10);
    else if (kind === "choice") settings[input.name] = input.value;
    else if (kind === "dealer") firstDealer = Number.parseInt(input.value, 10);
  }
  return { settings, firstDealer };
}

async function start(event) {
  event.preventDefault();
  const error = document.getElementById("start-error");
  error.textContent = "";
  const fieldset = form.querySelector(`.preset-settings[data-preset="${presetSelect.value}"]`);
  const { settings, firstDealer } = settingsOf(fieldset);
  const body = {
    preset: presetSelect.value,
    sides: [form.side0.value, form.side1.value],
    settings,
    first_dealer: firstDealer,
  };
  const button = document.getElementById("start");
  button.disabled = true;
  try {
    const response = await fetch("/api/sheets", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const made = await response.json();
    if (!response.ok) {
      error.textContent = reason(made.code);
      return;
    }
    remember({
      id: made.id,
      scorerToken: made.scorer_token,
      viewerToken: made.viewer_token,
      sides: made.sheet.sides,
      totals: made.sheet.status.totals,
      banked: false,
      preset: made.sheet.preset,
      last: made.sheet,
    });
    location.assign(`/scores/sheet/${encodeURIComponent(made.id)}`);
  } catch {
    error.textContent = reason("network");
  } finally {
    button.disabled = false;
  }
}

function renderMine() {
  const list = document.getElementById("mine-list");
  const sheets = allSheets().filter((s) => s.sides);
  list.replaceChildren();
  document.getElementById("mine-none").hidden = sheets.length > 0;
  for (const sheet of sheets) {
    const item = document.createElement("li");
    const a = document.createElement("a");
    a.href = `/scores/sheet/${encodeURIComponent(sheet.id)}`;
    a.className = "mine-item";
    const names = document.createElement("span");
    names.className = "mine-sides";
    names.textContent = `${sheet.sides[0]} – ${sheet.sides[1]}`;
    const score = document.createElement("span");
    score.className = "mine-score";
    score.textContent = `${sheet.totals[0]}–${sheet.totals[1]}`;
    const state = document.createElement("span");
    state.className = "mine-state";
    const words = [t(sheet.banked ? "scores.mine.finished" : "scores.mine.running")];
    if (!sheet.scorerToken) words.push(t("scores.mine.viewer"));
    state.textContent = words.join(" · ");
    a.append(names, score, state);
    item.append(a);
    list.append(item);
  }
}

presetSelect.addEventListener("change", showPresetSettings);
form.addEventListener("submit", start);
showPresetSettings();
renderMine();
registerServiceWorker();
