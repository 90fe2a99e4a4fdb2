// The Charlemagne table page: the one table page (../page.js) with the Charlemagne board.
import { startTable } from "../page.js";
import { Board } from "./board.js";

startTable(Board);
