// Every program imports the solver-family registry before it reads a parameter spec (its entry
// point does); tests get the same through this setup file.
import '../../src-shared/sim/registry'
