// Loads a VASSAL module exported by muster in the real VASSAL engine and reports, one
// tab-separated line each, what the Rust test `tests/engine.rs` compares with muster:
//   warning  <text>                      a warning of GameModule.validate
//   centre   <board> <hex> <x> <y>       HexGrid.getLocation(hex) for each hex asked
//   piece    <set-up> <map> <location> <Counter> <Turn> <Hexes>
//                                        every piece after each predefined set-up loads
// Arguments: the module, and a file of "<board>\t<hex>" lines.
//
// With `<module> --picture <set-up> <map> <out.png>` it loads that set-up instead and
// writes the picture VASSAL paints of that map window (its boards and pieces, as the
// map's view draws them), cropped to the pieces with a margin, then reports
//   picture  <pieces> <width> <height>

import java.awt.Graphics2D;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;
import javax.swing.SwingUtilities;

import VASSAL.Info;
import VASSAL.build.GameModule;
import VASSAL.build.module.Map;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.configure.ValidationReport;
import VASSAL.counters.GamePiece;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.tools.ArchiveWriter;

public class MusterVassalCheck {
  // Standard output as it was before VASSAL starts (VASSAL redirects it to its log).
  private static final PrintStream OUT = System.out;
  // Pixels of board shown around the pieces in a picture.
  private static final int MARGIN = 40;

  private static String prop(GamePiece p, String key) {
    final Object v = p.getProperty(key);
    return v == null ? "" : v.toString();
  }

  private static void report(String setup, GamePiece p) {
    final Map map = p.getMap();
    final String location = map == null ? "" : map.locationName(p.getPosition());
    OUT.println(String.join("\t", "piece", setup,
      map == null ? "" : map.getMapName(), location,
      prop(p, "Counter"), prop(p, "Turn"), prop(p, "Hexes")));
  }

  // Builds the module, as the player does when it opens one.
  private static GameModule open(String module) throws Exception {
    Info.setConfig(new StandardConfig());
    // The player's menus must exist before a module is built.
    final Constructor<?> menus = Class.forName("VASSAL.launch.Player$PlayerMenuManager")
      .getDeclaredConstructor();
    menus.setAccessible(true);
    menus.newInstance();
    SwingUtilities.invokeAndWait(() -> {
      try {
        GameModule.init(new GameModule(new ArchiveWriter(module)));
      }
      catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    return GameModule.getGameModule();
  }

  // Starts a fresh game from a predefined set-up's saved game.
  private static void load(GameModule g, PredefinedSetup s) throws Exception {
    SwingUtilities.invokeAndWait(() -> {
      try {
        g.getGameState().setup(false);
        try (InputStream in = s.getSavedGameContents()) {
          g.getGameState().loadGameInForeground(s.getFileName(), in);
        }
      }
      catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
  }

  private static List<PredefinedSetup> setups(GameModule g) {
    final List<PredefinedSetup> out = new ArrayList<>();
    for (final PredefinedSetup s : g.getAllDescendantComponentsOf(PredefinedSetup.class)) {
      if (s.isUseFile() && s.getFileName() != null && !s.getFileName().isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }

  // Every piece of a map, stacks opened.
  private static List<GamePiece> pieces(Map map) {
    final List<GamePiece> out = new ArrayList<>();
    for (final GamePiece p : map.getAllPieces()) {
      if (p instanceof Stack) {
        out.addAll(((Stack) p).asList());
      }
      else {
        out.add(p);
      }
    }
    return out;
  }

  private static void check(GameModule g, List<String> hexes) throws Exception {
    final ValidationReport validation = new ValidationReport();
    g.validate(g, validation);
    for (final String w : validation.getWarnings()) {
      OUT.println("warning\t" + w.replace('\n', ' '));
    }
    final List<Board> boards = g.getAllDescendantComponentsOf(Board.class);
    for (final String line : hexes) {
      final String[] f = line.split("\t");
      for (final Board b : boards) {
        if (b.getName().equals(f[0]) && b.getGrid() != null) {
          final Point p = b.getGrid().getLocation(f[1]);
          OUT.println(String.join("\t", "centre", f[0], f[1],
            Integer.toString(p.x), Integer.toString(p.y)));
        }
      }
    }
    for (final PredefinedSetup s : setups(g)) {
      final String name = s.getConfigureName();
      load(g, s);
      int n = 0;
      for (final Map map : Map.getMapList()) {
        for (final GamePiece p : pieces(map)) {
          report(name, p);
          n++;
        }
      }
      OUT.println("loaded\t" + name + "\t" + n);
    }
  }

  // The part of the map to show: the pieces with a margin, within the boards.
  private static Rectangle frame(Map map, List<GamePiece> pieces) {
    Rectangle boards = null;
    for (final Board b : map.getBoards()) {
      boards = boards == null ? b.bounds() : boards.union(b.bounds());
    }
    Rectangle around = null;
    for (final GamePiece p : pieces) {
      final Rectangle r = map.boundingBoxOf(p);
      around = around == null ? r : around.union(r);
    }
    if (boards == null || around == null) {
      throw new IllegalStateException(map.getMapName() + " shows no board or no piece");
    }
    around.grow(MARGIN, MARGIN);
    return around.intersection(boards);
  }

  private static void picture(GameModule g, String setup, String mapName, Path out)
      throws Exception {
    PredefinedSetup chosen = null;
    for (final PredefinedSetup s : setups(g)) {
      if (s.getConfigureName().equals(setup)) {
        chosen = s;
      }
    }
    if (chosen == null) {
      throw new IllegalArgumentException("no predefined set-up named " + setup);
    }
    load(g, chosen);
    Map map = null;
    for (final Map m : Map.getMapList()) {
      if (m.getMapName().equals(mapName)) {
        map = m;
      }
    }
    if (map == null) {
      throw new IllegalArgumentException("no map window named " + mapName);
    }
    final Map shown = map;
    final List<GamePiece> pieces = pieces(shown);
    final Rectangle r = frame(shown, pieces);
    final BufferedImage image = new BufferedImage(r.width, r.height, BufferedImage.TYPE_INT_RGB);
    SwingUtilities.invokeAndWait(() -> {
      final Graphics2D g2 = image.createGraphics();
      g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g2.translate(-r.x, -r.y);
      // What the map's view paints, with no component to repaint later: VASSAL then
      // draws every board tile before it returns.
      shown.paintRegion(g2, r, null);
      g2.dispose();
    });
    ImageIO.write(image, "png", out.toFile());
    OUT.println(String.join("\t", "picture", Integer.toString(pieces.size()),
      Integer.toString(r.width), Integer.toString(r.height)));
  }

  public static void main(String[] args) throws Exception {
    final GameModule g = open(args[0]);
    if (args[1].equals("--picture")) {
      picture(g, args[2], args[3], Path.of(args[4]));
    }
    else {
      check(g, Files.readAllLines(Path.of(args[1])));
    }
    OUT.flush();
    System.exit(0);
  }
}
