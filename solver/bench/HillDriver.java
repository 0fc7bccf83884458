import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.solver.Solver;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * Plays given mine layouts with David N. Hill's solver (its own Solver class, driven the way his
 * bulk runner drives it: SMALL_ANALYSIS, single thread, no flags), for autosweeper's paired
 * benchmark (solver/bench/hill.py, which compiles this file against a checkout of his code).
 *
 *   java HillDriver COLUMNS ROWS MINES START_ROW START_COLUMN  < layouts  > games
 *
 * A layout is one line, "ID TAB CELLS", CELLS a '1' (mine) or '0' per cell, row after row. For
 * each, one line: "ID TAB WON TAB CPU_NS TAB GUESSES", WON 1 or 0, CPU_NS the CPU time of this
 * thread for the game, GUESSES the moves the solver did not call certain, "row,column,safety"
 * separated by spaces (empty for none). Anything his code prints goes to standard error.
 */
public final class HillDriver {

	/** A game whose mines are given instead of shuffled. Hill's Location is (x = column, y = row). */
	static final class GivenLayout extends GameStateModelViewer {
		private final int[][] count;   // [x][y]: GameStateModel.MINE or the number

		GivenLayout(GameSettings size, boolean[] mines) {
			super(size, 0);
			count = new int[width][height];
			for (int index = 0; index < mines.length; index++) {
				if (mines[index]) {
					addMine(index % width, index / width);
				}
			}
		}

		private void addMine(int x, int y) {
			count[x][y] = GameStateModel.MINE;
			for (int dx = -1; dx <= 1; dx++) {
				for (int dy = -1; dy <= 1; dy++) {
					int nx = x + dx, ny = y + dy;
					if (nx >= 0 && nx < width && ny >= 0 && ny < height && count[nx][ny] != GameStateModel.MINE) {
						count[nx][ny]++;
					}
				}
			}
		}

		@Override
		protected void startHandle(Location first) {
			if (count[first.x][first.y] == GameStateModel.MINE) {
				throw new IllegalArgumentException("the first click (" + first.y + ", " + first.x + ") is on a mine");
			}
		}

		@Override
		protected int queryHandle(int x, int y) {
			return count[x][y];
		}

		@Override
		protected boolean clearSquareHitMine(Location cell) {
			if (count[cell.x][cell.y] == 0) {
				explode(cell);
			}
			return count[cell.x][cell.y] == GameStateModel.MINE;
		}

		@Override
		protected boolean clearSurroundHandle(Location cell) {
			for (int dx = -1; dx <= 1; dx++) {
				for (int dy = -1; dy <= 1; dy++) {
					int nx = cell.x + dx, ny = cell.y + dy;
					if (nx >= 0 && nx < width && ny >= 0 && ny < height) {
						clearSquare(new Location(nx, ny));
					}
				}
			}
			return true;
		}

		@Override
		protected void placeFlagHandle(Location cell) {
		}

		@Override
		public int privilegedQuery(Location cell, boolean showMines) {
			int shown = query(cell);
			if (showMines && shown == GameStateModel.HIDDEN && count[cell.x][cell.y] == GameStateModel.MINE) {
				return GameStateModel.MINE;
			}
			return shown;
		}
	}

	private static final BinomialCache BINOMIALS =
			new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);

	/** Plays one game to its end; returns "WON TAB GUESSES". */
	static String play(GameStateModel game, SolverSettings settings) {
		StringBuilder guesses = new StringBuilder();
		Solver solver = new Solver(game, settings, false);
		solver.setPlayStyle(PlayStyle.NO_FLAG);
		solver.setBinomialCache(BINOMIALS);
		for (int turn = 0; turn < 10_000; turn++) {
			solver.start();
			Action[] moves = solver.getResult();
			if (moves.length == 0) {
				throw new IllegalStateException("the solver returned no move");
			}
			for (Action move : moves) {
				if (!move.isCertainty()) {
					guesses.append(guesses.length() == 0 ? "" : " ")
							.append(move.y).append(',').append(move.x).append(',')
							.append(move.getBigProb().doubleValue());
				}
				game.doAction(move);
				int state = game.getGameState();
				if (state == GameStateModel.WON || state == GameStateModel.LOST) {
					return (state == GameStateModel.WON ? "1" : "0") + "\t" + guesses;
				}
			}
		}
		throw new IllegalStateException("the game did not end in 10000 turns");
	}

	public static void main(String[] args) throws Exception {
		int columns = Integer.parseInt(args[0]), rows = Integer.parseInt(args[1]);
		GameSettings size = GameSettings.create(columns, rows, Integer.parseInt(args[2]));
		SolverSettings settings = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
		settings.setSingleThread(true);
		settings.setStartLocation(new Location(Integer.parseInt(args[4]), Integer.parseInt(args[3])));
		ThreadMXBean clock = ManagementFactory.getThreadMXBean();
		PrintStream out = new PrintStream(System.out, false, "UTF-8");
		System.setOut(System.err);   // what his solver prints is not a game's line
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
		String line;
		while ((line = in.readLine()) != null) {
			String[] fields = line.split("\t");
			if (fields.length != 2 || fields[1].length() != rows * columns) {
				throw new IllegalArgumentException("not a layout of " + rows + "x" + columns + ": " + line);
			}
			boolean[] mines = new boolean[rows * columns];
			for (int index = 0; index < mines.length; index++) {
				mines[index] = fields[1].charAt(index) == '1';
			}
			long started = clock.getCurrentThreadCpuTime();
			String result = play(new GivenLayout(size, mines), settings);
			long used = clock.getCurrentThreadCpuTime() - started;
			String[] parts = result.split("\t", -1);
			out.print(fields[0] + "\t" + parts[0] + "\t" + used + "\t" + parts[1] + "\n");
			out.flush();
		}
	}
}
