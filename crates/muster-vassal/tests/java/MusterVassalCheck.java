// Loads a VASSAL module exported by muster in the real VASSAL engine and reports, one
// tab-separated line each, what the Rust test `tests/engine.rs` compares with muster:
//   warning  <text>                      a warning of GameModule.validate
//   centre   <board> <hex> <x> <y>       HexGrid.getLocation(hex) for each hex asked
//   piece    <set-up> <map> <location> <Counter> <Turn> <Hexes>
//                                        every piece after each predefined set-up loads
// Arguments: the module, and a file of "<board>\t<hex>" lines.

import java.awt.Point;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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

  public static void main(String[] args) throws Exception {
    final String module = args[0];
    final List<String> hexes = Files.readAllLines(Path.of(args[1]));
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
    final GameModule g = GameModule.getGameModule();
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
    for (final PredefinedSetup s : g.getAllDescendantComponentsOf(PredefinedSetup.class)) {
      if (!s.isUseFile() || s.getFileName() == null || s.getFileName().isEmpty()) {
        continue;
      }
      final String name = s.getConfigureName();
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
      int n = 0;
      for (final Map map : Map.getMapList()) {
        for (final GamePiece p : map.getAllPieces()) {
          if (p instanceof Stack) {
            for (final GamePiece q : ((Stack) p).asList()) {
              report(name, q);
              n++;
            }
          }
          else {
            report(name, p);
            n++;
          }
        }
      }
      OUT.println("loaded\t" + name + "\t" + n);
    }
    OUT.flush();
    System.exit(0);
  }
}
