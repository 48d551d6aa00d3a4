// An empty stand-in for the NetBeans wizard library VASSAL links against and Debian does
// not ship. Loading a module and its set-ups never opens a wizard; these only let the
// classes that mention it load.
package org.netbeans.api.wizard;
public class WizardDisplayer {
  public static Object showWizard(org.netbeans.spi.wizard.Wizard w, java.awt.Rectangle r) {
    return null;
  }

  public static Object showWizard(org.netbeans.spi.wizard.Wizard w, java.awt.Rectangle r, javax.swing.Action a, java.util.Map m) {
    return null;
  }
}
