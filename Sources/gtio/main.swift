import GTIOConsole

GTIOCommand.runAsMain()
