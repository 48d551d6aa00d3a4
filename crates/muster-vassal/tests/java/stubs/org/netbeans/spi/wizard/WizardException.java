// An empty stand-in for the NetBeans wizard library VASSAL links against and Debian does
// not ship. Loading a module and its set-ups never opens a wizard; these only let the
// classes that mention it load.
package org.netbeans.spi.wizard;

public class WizardException extends Exception {
}
