; Inno Setup 6 script for the Mneme Desktop installer.
;
; packaging/build.py --installer runs this with the Inno Setup compiler (ISCC.exe) and passes
; the version, the PyInstaller bundle, the icon and the output folder:
;
;   ISCC.exe /DAppVersion=0.1.0 /DSourceDir=packaging\dist\mneme-desktop ^
;            /DIconFile=resources\icons\mneme-desktop.ico /DOutputDir=packaging\dist ^
;            packaging\windows\mneme-desktop.iss
;
; The installer asks whether to install for the current user only (no administrator rights
; needed, the default) or for everyone; it adds a Start menu entry, opens .mneme files with
; the app on double-click, and registers an uninstaller. Settings and autosaves live in
; %LOCALAPPDATA%\Mneme\mneme-desktop and are left alone on uninstall: they are the user's.

#ifndef AppVersion
  #error Pass the version: ISCC /DAppVersion=X.Y.Z (packaging/build.py does)
#endif
#ifndef SourceDir
  #error Pass the PyInstaller bundle folder: ISCC /DSourceDir=...\mneme-desktop
#endif
#ifndef IconFile
  #define IconFile "..\..\resources\icons\mneme-desktop.ico"
#endif
#ifndef OutputDir
  #define OutputDir "..\dist"
#endif

#define AppName "Mneme Desktop"
#define AppExeName "mneme-desktop.exe"
#define AppPublisher "Mneme Desktop developers"
#define ProgId "MnemeDesktop.Campaign"

[Setup]
; AppId identifies the installation for upgrades and the uninstaller: never change it.
AppId={{6F1B2C4E-8D3A-4F5B-9C7E-2A1D0E4B7C93}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppPublisher}
VersionInfoVersion={#AppVersion}
VersionInfoProductName={#AppName}
VersionInfoDescription={#AppName} installer
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ChangesAssociations=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#OutputDir}
OutputBaseFilename=mneme-desktop-{#AppVersion}-windows-x86_64-setup
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\{#AppExeName}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExeName}"; Comment: "Characters, encounters and recovery for Mneme CE referees"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExeName}"; Tasks: desktopicon

[Registry]
; .mneme -> MnemeDesktop.Campaign -> "mneme-desktop.exe" "%1"  (HKA: per user or per machine,
; matching the install mode). The uninstaller removes exactly what is added here.
Root: HKA; Subkey: "Software\Classes\.mneme"; ValueType: string; ValueName: ""; ValueData: "{#ProgId}"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.mneme"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-mneme"; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.mneme\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\{#ProgId}"; ValueType: string; ValueName: ""; ValueData: "Mneme Desktop campaign"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\{#ProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExeName},0"
Root: HKA; Subkey: "Software\Classes\{#ProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExeName}"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExeName}"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "{#AppName}"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExeName}\SupportedTypes"; ValueType: string; ValueName: ".mneme"; ValueData: ""

[Run]
Filename: "{app}\{#AppExeName}"; Description: "{cm:LaunchProgram,{#StringChange(AppName, '&', '&&')}}"; Flags: nowait postinstall skipifsilent
