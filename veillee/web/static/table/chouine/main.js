// The Chouine table page: the one table page (../page.js) with the Chouine board.
import { startTable } from "../page.js";
import { Board } from "./board.js";

startTable(Board);
