// purpose-driver: runs REAL KF5 Purpose 5.103 code paths without a GUI click.
//
//   purpose-driver list     TYPE INPUT_JSON
//   purpose-driver run      TYPE INPUT_JSON PLUGIN_ID [--inprocess]
//        AlternativesModel -> configureJob(row) -> Configuration::createJob -> Job::start
//        (--inprocess = setUseSeparateProcess(false), which is what JobController/QML does)
//   purpose-driver menu     TYPE INPUT_JSON PLUGIN_ID
//        Purpose::Menu (PurposeWidgets) -> trigger action -> JobDialog.qml -> Menu::finished
//   purpose-driver fileitem PLUGIN_ID FILE...
//        loads the real sharefileitemaction.so (Dolphin's "Share" submenu) through
//        KFileItemActions::addActionsTo() exactly like Dolphin, triggers PLUGIN_ID's entry,
//        records QDesktopServices::openUrl calls and KFileItemActions::error.
//
// Everything observed is printed as JSON lines on stdout, prefixed "DRIVER ".
#include <QApplication>
#include <QDesktopServices>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QTimer>
#include <QUrl>
#include <QElapsedTimer>
#include <QFileInfo>

#include <KFileItem>
#include <KFileItemActions>
#include <KFileItemListProperties>

#include <Purpose/AlternativesModel>
#include <Purpose/Configuration>
#include <Purpose/Job>
#include <PurposeWidgets/Menu>

static QElapsedTimer g_clock;

static void emitLine(const QString &event, QJsonObject o)
{
    o.insert(QStringLiteral("event"), event);
    o.insert(QStringLiteral("t_ms"), double(g_clock.elapsed()));
    printf("DRIVER %s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    fflush(stdout);
}

class UrlSink : public QObject
{
    Q_OBJECT
public Q_SLOTS:
    void openUrl(const QUrl &url)
    {
        emitLine(QStringLiteral("QDesktopServices::openUrl"), {{QStringLiteral("url"), url.toString()}});
    }
};

static QJsonObject parseInput(const char *s)
{
    QJsonParseError err;
    const auto doc = QJsonDocument::fromJson(QByteArray(s), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        fprintf(stderr, "bad input json: %s\n", qPrintable(err.errorString()));
        exit(2);
    }
    return doc.object();
}

static QJsonArray listModel(Purpose::AlternativesModel &model)
{
    QJsonArray rows;
    for (int i = 0; i < model.rowCount(); ++i) {
        const QModelIndex idx = model.index(i);
        rows.append(QJsonObject{
            {QStringLiteral("row"), i},
            {QStringLiteral("display"), idx.data(Qt::DisplayRole).toString()},
            {QStringLiteral("pluginId"), idx.data(Purpose::AlternativesModel::PluginIdRole).toString()},
            {QStringLiteral("iconName"), idx.data(Purpose::AlternativesModel::IconNameRole).toString()},
            {QStringLiteral("actionDisplay"), idx.data(Purpose::AlternativesModel::ActionDisplayRole).toString()},
            {QStringLiteral("toolTipRole"), idx.data(Qt::ToolTipRole).toString()},
            {QStringLiteral("role_Qt_ToolTip_0x13"), idx.data(int(Qt::ToolTip)).toString()},
        });
    }
    return rows;
}

static QJsonObject jobState(Purpose::Job *job)
{
    return QJsonObject{
        {QStringLiteral("error"), job->error()},
        {QStringLiteral("errorText"), job->errorText()},
        {QStringLiteral("errorString"), job->errorString()},
        {QStringLiteral("percent"), double(job->percent())},
        {QStringLiteral("output"), job->output()},
        {QStringLiteral("className"), QString::fromLatin1(job->metaObject()->className())},
    };
}

int main(int argc, char **argv)
{
    g_clock.start();
    QApplication app(argc, argv);
    app.setQuitOnLastWindowClosed(false);
    UrlSink sink;
    for (const char *scheme : {"http", "https", "file", "mailto", "xdgshare"})
        QDesktopServices::setUrlHandler(QString::fromLatin1(scheme), &sink, "openUrl");

    const QStringList args = app.arguments();
    if (args.size() < 3) {
        fprintf(stderr, "usage: see source\n");
        return 2;
    }
    const QString mode = args.at(1);
    int timeoutMs = qEnvironmentVariableIntValue("DRIVER_TIMEOUT_MS");
    if (timeoutMs <= 0)
        timeoutMs = 40000;
    QTimer::singleShot(timeoutMs, &app, [] {
        emitLine(QStringLiteral("timeout"), {});
        QCoreApplication::exit(3);
    });

    if (mode == QLatin1String("list") || mode == QLatin1String("run") || mode == QLatin1String("menu")) {
        const QString type = args.at(2);
        const QJsonObject input = parseInput(argv[3]);
        auto *model = new Purpose::AlternativesModel(&app);
        model->setPluginType(type);
        model->setInputData(input);
        emitLine(QStringLiteral("model"), {{QStringLiteral("pluginType"), type}, {QStringLiteral("input"), input}, {QStringLiteral("rows"), listModel(*model)}});
        if (mode == QLatin1String("list"))
            return 0;

        const QString pluginId = args.at(4);
        int row = -1;
        for (int i = 0; i < model->rowCount(); ++i)
            if (model->index(i).data(Purpose::AlternativesModel::PluginIdRole).toString() == pluginId)
                row = i;
        if (row < 0) {
            emitLine(QStringLiteral("plugin-not-listed"), {{QStringLiteral("pluginId"), pluginId}});
            return 4;
        }

        if (mode == QLatin1String("run")) {
            Purpose::Configuration *config = model->configureJob(row);
            if (args.contains(QStringLiteral("--inprocess")))
                config->setUseSeparateProcess(false);
            emitLine(QStringLiteral("configuration"),
                     {{QStringLiteral("isReady"), config->isReady()},
                      {QStringLiteral("useSeparateProcess"), config->useSeparateProcess()},
                      {QStringLiteral("neededArguments"), config->neededArguments()},
                      {QStringLiteral("configSourceCode"), config->configSourceCode().toString()},
                      {QStringLiteral("pluginName"), config->pluginName()},
                      {QStringLiteral("pluginTypeName"), config->pluginTypeName()}});
            Purpose::Job *job = config->createJob();
            if (!job) {
                emitLine(QStringLiteral("createJob-null"), {});
                return 5;
            }
            QObject::connect(job, &KJob::percentChanged, [](KJob *, unsigned long p) {
                emitLine(QStringLiteral("percentChanged"), {{QStringLiteral("percent"), double(p)}});
            });
            QObject::connect(job, &Purpose::Job::outputChanged, [](const QJsonObject &o) {
                emitLine(QStringLiteral("outputChanged"), {{QStringLiteral("output"), o}});
            });
            QObject::connect(job, &KJob::infoMessage, [](KJob *, const QString &a, const QString &b) {
                emitLine(QStringLiteral("infoMessage"), {{QStringLiteral("plain"), a}, {QStringLiteral("rich"), b}});
            });
            QObject::connect(job, &KJob::result, [job](KJob *) {
                emitLine(QStringLiteral("result"), jobState(job));
                QTimer::singleShot(0, [] { QCoreApplication::exit(0); });
            });
            emitLine(QStringLiteral("start"), jobState(job));
            job->start();
            return app.exec();
        }

        // menu
        auto *menu = new Purpose::Menu();
        menu->model()->setPluginType(type);
        menu->model()->setInputData(input);
        menu->reload();
        QAction *target = nullptr;
        QJsonArray actions;
        for (QAction *a : menu->actions()) {
            actions.append(QJsonObject{{QStringLiteral("text"), a->text()}, {QStringLiteral("toolTip"), a->toolTip()}, {QStringLiteral("pluginId"), a->property("pluginId").toString()}});
            if (a->property("pluginId").toString() == pluginId)
                target = a;
        }
        emitLine(QStringLiteral("menu"), {{QStringLiteral("enabled"), menu->isEnabled()}, {QStringLiteral("actions"), actions}});
        QObject::connect(menu, &Purpose::Menu::finished, [](const QJsonObject &output, int error, const QString &msg) {
            emitLine(QStringLiteral("Menu::finished"), {{QStringLiteral("output"), output}, {QStringLiteral("error"), error}, {QStringLiteral("errorMessage"), msg}});
            QTimer::singleShot(300, [] { QCoreApplication::exit(0); });
        });
        if (!target)
            return 4;
        target->trigger();
        return app.exec();
    }

    if (mode == QLatin1String("fileitem")) {
        const QString pluginId = args.at(2);
        KFileItemList items;
        for (int i = 3; i < args.size(); ++i) {
            const QString a = args.at(i);
            const QUrl url = a.contains(QLatin1String("://")) ? QUrl(a) : QUrl::fromLocalFile(QFileInfo(a).absoluteFilePath());
            items << KFileItem(url);
        }
        KFileItemListProperties props(items);
        emitLine(QStringLiteral("KFileItemListProperties"),
                 {{QStringLiteral("mimeType"), props.mimeType()}, {QStringLiteral("mimeGroup"), props.mimeGroup()}, {QStringLiteral("isFile"), props.isFile()}});
        auto *widget = new QWidget;
        KFileItemActions fia;
        fia.setParentWidget(widget);
        fia.setItemListProperties(props);
        QObject::connect(&fia, &KFileItemActions::error, [](const QString &msg) {
            emitLine(QStringLiteral("KFileItemActions::error"), {{QStringLiteral("message"), msg}});
        });
        QMenu top;
        QList<QAction *> additional;
        fia.addActionsTo(&top, KFileItemActions::MenuActionSource::All, additional);
        QJsonArray topActions;
        Purpose::Menu *share = nullptr;
        for (QAction *a : top.actions()) {
            topActions.append(QJsonObject{{QStringLiteral("text"), a->text()}, {QStringLiteral("hasMenu"), a->menu() != nullptr}});
            if (auto *m = qobject_cast<Purpose::Menu *>(a->menu()))
                share = m;
        }
        emitLine(QStringLiteral("contextMenu"), {{QStringLiteral("actions"), topActions}, {QStringLiteral("foundPurposeMenu"), share != nullptr}});
        if (!share)
            return 6;
        QJsonArray sub;
        QAction *target = nullptr;
        for (QAction *a : share->actions()) {
            sub.append(QJsonObject{{QStringLiteral("text"), a->text()}, {QStringLiteral("pluginId"), a->property("pluginId").toString()}});
            if (a->property("pluginId").toString() == pluginId)
                target = a;
        }
        emitLine(QStringLiteral("shareMenu"),
                 {{QStringLiteral("title"), share->title()}, {QStringLiteral("enabled"), share->isEnabled()}, {QStringLiteral("inputData"), share->model()->inputData()}, {QStringLiteral("actions"), sub}});
        QObject::connect(share, &Purpose::Menu::finished, [](const QJsonObject &output, int error, const QString &msg) {
            emitLine(QStringLiteral("Menu::finished"), {{QStringLiteral("output"), output}, {QStringLiteral("error"), error}, {QStringLiteral("errorMessage"), msg}});
            QTimer::singleShot(500, [] { QCoreApplication::exit(0); });
        });
        if (!target)
            return 4;
        target->trigger();
        return app.exec();
    }
    return 2;
}

#include "driver.moc"
