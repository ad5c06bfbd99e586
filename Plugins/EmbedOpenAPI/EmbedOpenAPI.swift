import Foundation
import PackagePlugin

/// Embeds docs/openapi.yaml in the HTTPAPI target as `OpenAPIDocument.yaml`, the description
/// `GET /v1/openapi.yaml` serves: the document is kept once, and the build takes it up whenever
/// it changes.
@main
struct EmbedOpenAPI: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "docs/openapi.yaml")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument.swift")
        return [
            .buildCommand(
                displayName: "Embedding docs/openapi.yaml",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [
                    input.path, output.path, "OpenAPIDocument", "yaml",
                    "The OpenAPI 3.1 description of the API, served at `/v1/openapi.yaml`: docs/openapi.yaml.",
                ],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
