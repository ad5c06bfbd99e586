public import ArgumentParser
public import Store

/// `--role viewer|operator|admin`: a wrong value exits 64 naming the choices, before any prompt.
extension OperatorRole: ExpressibleByArgument {}
